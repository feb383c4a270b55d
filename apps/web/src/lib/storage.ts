/** Client storage keys of spec 1 §3. */
export const STORAGE_KEYS = {
  token: 'token',
  userIds: 'userIds',
  userRole: 'userRole',
  userLogo: 'userLogo',
} as const;
type Key = keyof typeof STORAGE_KEYS;

const safe = <T>(f: () => T, fallback: T): T => {
  try {
    return f();
  } catch {
    return fallback;
  }
};

export const storage = {
  get: (k: Key): string | null => safe(() => localStorage.getItem(STORAGE_KEYS[k]), null),
  set: (k: Key, v: string): void => safe(() => localStorage.setItem(STORAGE_KEYS[k], v), undefined),
  remove: (k: Key): void => safe(() => localStorage.removeItem(STORAGE_KEYS[k]), undefined),
};

/** Selected store ids: comma separated, the first is the current store. */
export const readUserIds = (): number[] =>
  (storage.get('userIds') ?? '')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
