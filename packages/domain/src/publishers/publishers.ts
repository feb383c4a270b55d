import { publisherNames } from '../messages/publishers';
import { ROLE } from '../roles/roles';

/** Publisher keys of spec 1 §3; the order is the table's order on /connect-account. */
export const PUBLISHER_KEYS = ['google_my_business', 'facebook', 'instagram', 'twitter'] as const;
export type PublisherKey = (typeof PUBLISHER_KEYS)[number];

export type PublisherInfo = {
  id: number;
  key: PublisherKey;
  /** Short label shown in tables and toasts. */
  label: string;
  /** The channel's full name. */
  name: string;
  /** File name under the API host's images/publisher path (spec 1 §3). */
  logo: string;
};

export const PUBLISHERS: readonly PublisherInfo[] = [
  {
    id: 1,
    key: 'google_my_business',
    label: 'Google',
    name: publisherNames.google_my_business,
    logo: 'google_my_business.svg',
  },
  { id: 2, key: 'facebook', label: 'Facebook', name: 'Facebook', logo: 'facebook.svg' },
  { id: 3, key: 'instagram', label: 'Instagram', name: 'Instagram', logo: 'instagram.svg' },
  { id: 4, key: 'twitter', label: 'X', name: publisherNames.twitter, logo: 'twitter.svg' },
];

/** The public path of a publisher's icon (spec 1 §3: images/publisher on the API host). */
export const PUBLISHER_LOGO_PATH = '/images/publisher/';

export const publisherByKey = (key: string): PublisherInfo | undefined =>
  PUBLISHERS.find((p) => p.key === key);
export const publisherById = (id: number): PublisherInfo | undefined =>
  PUBLISHERS.find((p) => p.id === id);

/** Connection status codes of spec 1 §4. */
export const PUBLISHER_STATUS = {
  disconnect: 0,
  connected: 1,
  sync: 2,
  submitted: 3,
  error: 4,
  requesting: 5,
} as const;
export type PublisherStatus = (typeof PUBLISHER_STATUS)[keyof typeof PUBLISHER_STATUS];

/** Statuses that count as connected (spec 1 §4: in the posting area status 2 counts too). */
export const CONNECTED_PUBLISHER_STATUSES: readonly PublisherStatus[] = [
  PUBLISHER_STATUS.connected,
  PUBLISHER_STATUS.sync,
];

/** The publishers a free-trial user may act on (DESIGN §10). */
export const FREE_TRIAL_PUBLISHERS: readonly PublisherKey[] = ['google_my_business'];

/** May a store of this role act on this publisher (connect, disconnect, pick a page)? */
export const mayUsePublisher = (role: number, key: PublisherKey): boolean =>
  role !== ROLE.freeTrial || FREE_TRIAL_PUBLISHERS.includes(key);

/**
 * What the connect-account screen offers for a row (spec 1 §2): disconnected and error rows
 * offer Sync (connect); submitted, sync, requesting and connected rows offer Disconnect;
 * a publisher outside a free-trial user's list shows 'disable'.
 */
export const publisherAction = (
  role: number,
  key: PublisherKey,
  status: number,
): 'connect' | 'disconnect' | 'disable' => {
  if (!mayUsePublisher(role, key)) return 'disable';
  return status === PUBLISHER_STATUS.disconnect || status === PUBLISHER_STATUS.error
    ? 'connect'
    : 'disconnect';
};

/**
 * How the connect-account screen shows a row's status (spec 1 §2 status display): disconnect
 * reads 'disconnect' (or 'disable' outside a free-trial user's list); connected shows the
 * connected mark; sync shows success; submitted and requesting show the refresh mark; error
 * shows the log lines.
 */
export type PublisherStatusView =
  | 'disconnect'
  | 'disable'
  | 'connected'
  | 'success'
  | 'refresh'
  | 'error';

export const publisherStatusView = (
  role: number,
  key: PublisherKey,
  status: number,
): PublisherStatusView => {
  switch (status) {
    case PUBLISHER_STATUS.connected:
      return 'connected';
    case PUBLISHER_STATUS.sync:
      return 'success';
    case PUBLISHER_STATUS.submitted:
    case PUBLISHER_STATUS.requesting:
      return 'refresh';
    case PUBLISHER_STATUS.error:
      return 'error';
    default:
      return mayUsePublisher(role, key) ? 'disconnect' : 'disable';
  }
};

/**
 * What the provider's return to /connect-account reports (`?error=…&publisher_key=…`), as the
 * OAuth return route writes it.
 */
export const CONNECT_RETURN_ERRORS = [
  'access_denied',
  'denied',
  'invalid_state',
  'connect_failed',
] as const;
export type ConnectReturnError = (typeof CONNECT_RETURN_ERRORS)[number];

/** Location picker page size (spec 1 §2: 5 per page). */
export const LOCATIONS_PER_PAGE = 5;

/** How many error lines a publisher row keeps for the screen. */
export const PUBLISHER_LOG_LINES = 10;

/**
 * Publishers that go with another (spec 1 §2): connecting Facebook connects the Instagram
 * account of the chosen page, and disconnecting Facebook disconnects Instagram.
 */
export const LINKED_PUBLISHERS: Readonly<Partial<Record<PublisherKey, readonly PublisherKey[]>>> = {
  facebook: ['instagram'],
};
