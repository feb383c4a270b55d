import { z } from 'zod';
import { idField, idParams, isIdText } from '../ids';
import { ja } from '../messages/ja';
import { groupJa } from '../messages/groups';
import { GROUP_STORES_MAX } from './limits';
import { ROLE } from '../roles/roles';
import { groupSchema } from '../stores/schemas';

/**
 * Agency groups (spec 3 §2 group form, §3 group payload, §7 Agency and Admin; ADR 0048).
 * The payload keeps the spec's names: `name`, `leader_id`, `store_list` (comma-joined store
 * ids), `agency_id`. The same rules judge the web form and the API's request.
 */

export const GROUP_NAME_MAX = 100;
/** Spec 3 §9: the group form's table of chosen stores shows 5 a page. */
export const GROUP_STORES_PER_PAGE = 5;

export type StoreListResult =
  | { ok: true; ids: number[] }
  | { ok: false; reason: 'format' | 'duplicate'; id?: number };

/**
 * Reads `store_list` ("3,5,8"): ids in the order given, spaces around them ignored, an empty
 * string is no store. Anything but positive integers is a format error; an id twice is an error.
 */
export const parseStoreList = (raw: string): StoreListResult => {
  const text = raw.trim();
  if (text === '') return { ok: true, ids: [] };
  const ids: number[] = [];
  const seen = new Set<number>();
  for (const part of text.split(',')) {
    const p = part.trim();
    if (!/^[1-9]/.test(p) || !isIdText(p)) return { ok: false, reason: 'format' };
    const id = Number(p);
    if (seen.has(id)) return { ok: false, reason: 'duplicate', id };
    seen.add(id);
    ids.push(id);
  }
  return { ok: true, ids };
};

/** The leader, when there is one, is one of the group's stores (spec 3 §2). */
export const leaderInGroup = (leaderId: number | null, storeIds: readonly number[]): boolean =>
  leaderId === null || storeIds.includes(leaderId);

/** Only a shop can act as a group leader (DESIGN §4: a leader is a shop with `is_leader`). */
export const mayLead = (store: { role: number }): boolean => store.role === ROLE.shop;

/** Removing a store from the form's table clears the leader if it was that store (spec 3 §2). */
export const withoutStore = <T extends { id: number }>(
  stores: readonly T[],
  leaderId: number | null,
  removed: number,
): { stores: T[]; leaderId: number | null } => ({
  stores: stores.filter((s) => s.id !== removed),
  leaderId: leaderId === removed ? null : leaderId,
});

const idOf = (label: string) => idField(ja.invalidChoice(label));

/** The group name: required, trimmed (the spec's 「{field} を入力してください。」). */
export const groupNameField = z
  .string({ error: ja.required(groupJa.labels.name) })
  .trim()
  .min(1, ja.required(groupJa.labels.name))
  .max(GROUP_NAME_MAX, ja.maxLength(groupJa.labels.name, GROUP_NAME_MAX));

/** POST /agency/groups, PUT /agency/groups/{id}, and the admin's POST/PUT /admin/groups. */
export const groupPayloadSchema = z
  .object({
    name: groupNameField,
    /** null, '' or absent: no leader. */
    leader_id: z
      .union([z.literal(''), z.null(), idOf(groupJa.labels.leader_id)])
      .optional()
      .transform((v) => (v === '' || v === null || v === undefined ? null : v)),
    store_list: z
      .union([z.string(), z.number().int()], { error: groupJa.storeListRequired })
      .transform((v) => String(v)),
    /** The agency the group belongs to: an agency may leave it out; a manager names it. */
    agency_id: z
      .union([z.literal(''), z.null(), idOf(groupJa.labels.agency_id)])
      .optional()
      .transform((v) => (v === '' || v === null || v === undefined ? null : v)),
  })
  .transform((v, ctx) => {
    const parsed = parseStoreList(v.store_list);
    if (!parsed.ok) {
      ctx.addIssue({
        code: 'custom',
        path: ['store_list'],
        message:
          parsed.reason === 'duplicate' && parsed.id !== undefined
            ? groupJa.storeTwice(parsed.id)
            : groupJa.storeListFormat,
      });
      return z.NEVER;
    }
    if (parsed.ids.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['store_list'], message: groupJa.storeListRequired });
      return z.NEVER;
    }
    if (parsed.ids.length > GROUP_STORES_MAX) {
      ctx.addIssue({ code: 'custom', path: ['store_list'], message: groupJa.storeListTooLong });
      return z.NEVER;
    }
    if (!leaderInGroup(v.leader_id, parsed.ids)) {
      ctx.addIssue({ code: 'custom', path: ['leader_id'], message: groupJa.leaderNotInGroup });
      return z.NEVER;
    }
    return { name: v.name, leader_id: v.leader_id, store_ids: parsed.ids, agency_id: v.agency_id };
  });
export type GroupPayload = z.input<typeof groupPayloadSchema>;
export type GroupInput = z.output<typeof groupPayloadSchema>;

export const groupIdParams = idParams;

/** A group as the agency, the leader and the manager read it, with the agency it belongs to. */
export const agencyGroupSchema = groupSchema.extend({
  agency_id: z.number().int(),
  agency_name: z.string().nullable(),
});
export type AgencyGroup = z.infer<typeof agencyGroupSchema>;

/** GET /admin/groups: search by group name, 10 a page (spec 3 §3 admin lists). */
export const adminGroupsQuery = z.object({
  search: z.string().trim().max(100).optional(),
  agency_id: idField().optional(),
});
