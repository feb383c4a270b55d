import type { User } from '@tenpo/domain';
import type { UserRow } from '../../db/types';
import type { Clock } from '../../lib/clock';
import { presentUser } from './users.present';
import type { UsersRepo } from './users.repo';

export type UsersService = ReturnType<typeof createUsersService>;

export function createUsersService(repo: UsersRepo, clock: Clock) {
  return {
    repo,
    async present(row: UserRow): Promise<User> {
      return presentUser(row, clock.now(), await repo.logoOf(row.agency_id));
    },
  };
}
