import { ROLE, storeOptionDisabled, type StoreRow, type User } from '@tenpo/domain';
import { logoVersion, sessionStore, isAccountManager } from './session';
import { readUserIds, storage } from './storage';
import { createStore, useStore } from './store';

export type Selection = {
  /** Selected store ids; the first is the current store. */
  ids: number[];
  /** What is known of the selected stores (from the list they were chosen in). */
  stores: StoreRow[];
};

export const selectionStore = createStore<Selection>({ ids: readUserIds(), stores: [] });
export const useSelection = (): Selection => useStore(selectionStore);

/** Re-reads the ids from storage (another tab, a logout). */
export const syncSelection = (): void => {
  const ids = readUserIds();
  selectionStore.set((s) => ({ ids, stores: s.stores.filter((r) => ids.includes(r.id)) }));
};

/**
 * Stores the chosen ids and applies the selected-store role and logo rule of spec 1 §4:
 * for a manager or an agency, `userRole` keeps the store's role only if it is agency, and the
 * logo is the store's agency logo; for other roles the role is cleared and the own logo is used.
 */
export const selectStores = (
  rows: StoreRow[],
  user: User | null,
  ids: number[] = rows.map((r) => r.id),
): void => {
  if (ids.length > 0) storage.set('userIds', ids.join(','));
  else storage.remove('userIds');
  const first = rows.find((r) => r.id === ids[0]);
  if (isAccountManager(user) && first) {
    if (first.role === ROLE.agency) storage.set('userRole', String(first.role));
    else storage.remove('userRole');
    if (first.agency_logo) storage.set('userLogo', first.agency_logo);
    else storage.remove('userLogo');
  } else {
    storage.remove('userRole');
    if (user?.logo_url) storage.set('userLogo', user.logo_url);
    else storage.remove('userLogo');
  }
  selectionStore.set({ ids, stores: rows });
  logoVersion.set((n) => n + 1);
};

/**
 * Remembers rows of stores already selected (loaded after a page reload), and takes the newer
 * row of one already known: its payment state changes (a payment made, a charge failed) drive
 * the panels and the payment menu.
 */
export const rememberStores = (rows: StoreRow[]): void => {
  const { ids, stores } = selectionStore.get();
  const fresh = rows.filter((r) => ids.includes(r.id));
  const same = (a: StoreRow, b: StoreRow) => JSON.stringify(a) === JSON.stringify(b);
  const changed = fresh.filter((r) => {
    const old = stores.find((s) => s.id === r.id);
    return old === undefined || !same(old, r);
  });
  if (changed.length === 0) return;
  const byId = new Map(changed.map((r) => [r.id, r]));
  const kept = stores.map((s) => byId.get(s.id) ?? s);
  const add = changed.filter((r) => !stores.some((s) => s.id === r.id));
  selectionStore.set({ ids, stores: [...kept, ...add] });
};

/**
 * Whether a selection can stand for a single-store screen (spec 1 §2: elsewhere than the
 * multi-store screens the selection is single-store). Several stores cannot, nor one store
 * that the single selector disables: such a selection was made on a multi-store screen, and
 * quietly acting for its first store would act for a store the user did not pick here.
 * No selection at all is left to the guards (own store, or sent to Dashboard).
 */
export const singleStoreUsable = ({ ids, stores }: Selection): boolean => {
  if (ids.length > 1) return false;
  const row = stores.find((s) => s.id === ids[0]);
  return row === undefined || !storeOptionDisabled(row, 'single');
};

/** The store the single-store screens act for: the one selected, else the user's own. */
export const currentStoreId = (): number | null => {
  const sel = selectionStore.get();
  if (!singleStoreUsable(sel)) return null;
  return sel.ids[0] ?? sessionStore.get().user?.id ?? null;
};

export const clearSelection = (): void => {
  storage.remove('userIds');
  selectionStore.set({ ids: [], stores: [] });
};

// Logging out forgets the selection too.
sessionStore.subscribe(() => {
  if (!sessionStore.get().isLoggedIn && selectionStore.get().ids.length > 0) {
    selectionStore.set({ ids: [], stores: [] });
  }
});

/** The store a single-store screen acts for, with its role when known (for the trial rules). */
export type CurrentStore = { id: number; role: number | null };

export const useCurrentStore = (): CurrentStore | null => {
  const selection = useSelection();
  const { ids, stores } = selection;
  const user = useStore(sessionStore).user;
  if (!singleStoreUsable(selection)) return null;
  const id = ids[0] ?? user?.id ?? null;
  if (id === null) return null;
  if (user && id === user.id) return { id, role: user.role };
  const row = stores.find((s) => s.id === id);
  return { id, role: row ? row.role : null };
};
