import { describe, expect, it } from 'vitest';
import { MANAGER_ONLY, afterSelect, guardRedirect, type RouteMeta } from './route-meta';

const shop = { role: 1, is_leader: false };
const trial = { role: 0, is_leader: false };
const leader = { role: 1, is_leader: true };
const agency = { role: 11, is_leader: false };
const manager = { role: 99, is_leader: false };

const posts: RouteMeta = { name: 'Posts', title: '', needsStores: true };
const overview: RouteMeta = { name: 'Overview', title: '' };
const agencies: RouteMeta = { name: 'Overview Agencies', title: '', roles: MANAGER_ONLY };
const dashboard: RouteMeta = { name: 'Dashboard', title: '' };
const connectAccount: RouteMeta = { name: 'Connect Account', title: '', needsStores: true };
const home: RouteMeta = { name: 'Home', title: '' };

describe('guardRedirect (spec 1 §2 guards)', () => {
  it.each([
    ['manager-only route, agency', agencies, agency, true, [1], '/dashboard'],
    ['manager-only route, manager', agencies, manager, true, [], null],
    ['store route, agency without selection', posts, agency, true, [], '/dashboard'],
    ['store route, manager without selection', posts, manager, true, [], '/dashboard'],
    ['store route, agency with selection', posts, agency, true, [8], null],
    ['store route, shop without selection', posts, shop, true, [], null],
    ['shop without Google, guarded route', posts, shop, false, [], '/google-my-business'],
    ['trial without Google, dashboard', dashboard, trial, false, [], '/google-my-business'],
    ['shop without Google, exempt route', connectAccount, shop, false, [], null],
    ['agency without Google is not sent', dashboard, agency, false, [], null],
    ['a single shop’s home is its dashboard', overview, shop, true, [], '/dashboard'],
    ['a group leader keeps the overview', overview, leader, true, [], null],
    ['agency keeps the overview', overview, agency, false, [], null],
    // "/" (issue 23 item 8): somewhere whatever is selected.
    ['"/", agency with two stores', home, agency, false, [8, 9], '/overview'],
    ['"/", agency with none', home, agency, false, [], '/overview'],
    ['"/", manager with two stores', home, manager, true, [8, 9], '/overview'],
    ['"/", group leader', home, leader, true, [], '/overview'],
    ['"/", shop', home, shop, true, [], '/dashboard'],
    [
      '"/", trial without Google (then sent on by the dashboard)',
      home,
      trial,
      false,
      [],
      '/dashboard',
    ],
  ] as const)('%s', (_n, meta, user, connectGMB, ids, want) => {
    expect(guardRedirect(meta, { user, connectGMB, selectedIds: ids })).toBe(want);
  });
});

describe('afterSelect (spec 1 §2 store selector)', () => {
  it.each([
    [null, 1, '/dashboard'],
    [null, 2, null],
    ['Overview', 1, '/dashboard'],
    ['Manual Document', 1, '/dashboard'],
    ['Change Password', 1, '/dashboard'],
    ['Setting Account', 3, null],
    ['Report', 2, '/report-multiple'],
    ['Report', 1, '/report'],
    ['ReportMultiple', 1, '/report'],
    ['ReportMultiple', 3, null],
    ['Posts', 3, null],
    ['Reviews', 2, null],
    ['Dashboard', 1, null],
  ] as const)('from %s with %i store(s)', (from, n, want) => {
    expect(afterSelect(from, n)).toBe(want);
  });
});
