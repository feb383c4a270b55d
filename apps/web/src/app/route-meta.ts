import { ROLE, isStoreRole, type User } from '@tenpo/domain';
import { isAccountManager } from '../lib/session';

/** Route names of spec 1 §2 (plus names for the screens it lists without one). */
export type RouteName =
  | 'Home'
  | 'Login'
  | 'Forgot Password'
  | 'Reset Password'
  | 'Register Information'
  | 'Register Account'
  | 'Confirm Email'
  | 'Facebook Terms And Privacy'
  | 'Not Found'
  | 'Overview'
  | 'Overview Agencies'
  | 'Google My Business'
  | 'Facebook'
  | 'Dashboard'
  | 'Dashboard Chart'
  | 'Change Payment Method'
  | 'Connect Account'
  | 'Connect Location'
  | 'Manual Document'
  | 'Register Payment'
  | 'Post'
  | 'Posts'
  | 'Reviews'
  | 'Request Change Information'
  | 'Products'
  | 'Basic Information'
  | 'Knowledge Tag'
  | 'Add Knowledge Tag'
  | 'Schema Markup'
  | 'Media'
  | 'Report'
  | 'ReportMultiple'
  | 'Change Password'
  | 'Setting Account'
  | 'Audit Log';

export type RouteMeta = {
  name: RouteName;
  /** Japanese screen title. */
  title: string;
  /** Manager and agency users need stored selected store ids (else sent to Dashboard). */
  needsStores?: boolean;
  /** Only these roles may open the route (others are sent to Dashboard). */
  roles?: readonly number[];
  /** The screen is replaced by the pay-required / confirm-mail panel when they apply. */
  paymentGate?: boolean;
};

/** Routes a user without a connected business profile may still open (spec 1 §2). */
export const GMB_EXEMPT: ReadonlySet<RouteName> = new Set<RouteName>([
  'Connect Location',
  'Connect Account',
  'Overview',
  'Overview Agencies',
  'Change Password',
  'Setting Account',
  'Manual Document',
  'Audit Log',
  'Register Payment',
  'Facebook',
  'Google My Business',
]);

/** Screens whose store selector is multi-store and whose side bar may be reduced. */
export const MULTI_STORE_SCREENS: ReadonlySet<RouteName> = new Set<RouteName>([
  'Report',
  'ReportMultiple',
  'Request Change Information',
  'Post',
  'Posts',
  // The reviews of several stores at once (issue 25).
  'Reviews',
]);

/** Account screens: no side bar for agency, manager and group-leader users. */
export const ACCOUNT_SCREENS: ReadonlySet<RouteName> = new Set<RouteName>([
  'Overview',
  'Overview Agencies',
  'Change Password',
  'Setting Account',
  'Manual Document',
  'Audit Log',
]);

/** No store selector in the top bar on these. */
export const NO_SELECTOR_SCREENS: ReadonlySet<RouteName> = new Set<RouteName>([
  'Overview',
  'Overview Agencies',
  // Its own store filter: the history reads across the stores the user sees (ADR 0047).
  'Audit Log',
]);

export type GuardContext = {
  user: Pick<User, 'role' | 'is_leader'>;
  connectGMB: boolean;
  selectedIds: readonly number[];
};

/**
 * Where the guards of spec 1 §2 send a signed-in user who opens `meta`, or null to stay.
 * Applied again after each redirect, so chains (/overview → /dashboard → /google-my-business)
 * resolve one step at a time.
 */
export const guardRedirect = (meta: RouteMeta, ctx: GuardContext): string | null => {
  const { user } = ctx;
  // "/" leads somewhere whatever is selected: it is a redirect, not a screen (issue 23 item 8).
  if (meta.name === 'Home') return homeFor(user);
  if (meta.roles && !meta.roles.includes(user.role)) return '/dashboard';
  if (meta.needsStores && isAccountManager(user) && ctx.selectedIds.length === 0) {
    return '/dashboard';
  }
  if (isStoreRole(user.role) && !ctx.connectGMB && !GMB_EXEMPT.has(meta.name)) {
    return '/google-my-business';
  }
  // A single shop's home is its own dashboard; the overview lists stores for the others.
  if (meta.name === 'Overview' && homeFor(user) !== '/overview') return homeFor(user);
  return null;
};

/**
 * Where "/" leads (spec 1 §2: / redirects to /overview): the overview for the users who have
 * one (agency, manager, group leader), whatever stores they have selected; a single shop's
 * overview is its own dashboard, so it goes there at once. The guards of the target then apply
 * (a shop without a business profile goes on to /google-my-business).
 */
export const homeFor = (user: Pick<User, 'role' | 'is_leader'>): string =>
  isStoreRole(user.role) && !user.is_leader ? '/dashboard' : '/overview';

export const MANAGER_ONLY: readonly number[] = [ROLE.manager];

/** Store selector navigation after "select" (spec 1 §2 store selector). */
export const afterSelect = (from: RouteName | null, count: number): string | null => {
  if (
    from === null ||
    from === 'Overview' ||
    from === 'Manual Document' ||
    from === 'Change Password' ||
    from === 'Setting Account'
  ) {
    return count === 1 ? '/dashboard' : null;
  }
  if (from === 'Report') return count > 1 ? '/report-multiple' : '/report';
  if (from === 'ReportMultiple') return count <= 1 ? '/report' : null;
  return null;
};
