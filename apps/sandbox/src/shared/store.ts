import fs from 'node:fs';
import path from 'node:path';

export type JsonStore<T> = {
  /** The live state; mutate it, then call save(). */
  data: T;
  save(): void;
  /** Back to the seed (used by the reset control). */
  reset(): void;
};

/** How long a change waits for others before its state is written (one write for them all). */
export const SAVE_DELAY_MS = 20;

/** The writes of the states changed since the last write, by file. */
const pending = new Map<string, () => void>();
let timer: NodeJS.Timeout | null = null;

/**
 * Writes every changed state now. The plugin calls it when its server closes, and it runs when
 * the process exits, so a restart finds what was answered before it.
 */
export function flushStores(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  const writes = [...pending.entries()];
  pending.clear();
  for (const [file, write] of writes) {
    try {
      write();
    } catch (err) {
      // A timer's write has nobody to answer to: say so, keep serving, and leave the file due,
      // so the next answer that waits for it (commitStores) fails instead of claiming it.
      console.error('sandbox: a state file could not be written', err);
      if (!pending.has(file)) pending.set(file, write);
    }
  }
}
process.once('exit', flushStores);

let commit: Promise<void> | null = null;
/** When the next group write may start: as long after the last one ended as it took. */
let nextWriteAt = 0;

/**
 * Resolves once every change made so far is on disk. The plugin awaits it before each answer
 * leaves (index.ts), so a post or a token the answer names survives a crash right after it
 * (kill -9: what is written is in the OS's page cache, which outlives the process).
 * A group commit: the answers waiting share one write per changed file. Alone, an answer waits
 * for its own write; under load, a write that took d ms is followed by a pause of d ms in which
 * the answers made meanwhile gather for the next one, so writing takes at most about half the
 * time however large the files grow (ADR 0054 has the figures).
 */
export function commitStores(): Promise<void> {
  if (pending.size === 0) return Promise.resolve();
  commit ??= new Promise<void>((resolve, reject) => {
    const run = (): void => {
      commit = null;
      if (timer) clearTimeout(timer);
      timer = null;
      const writes = [...pending.entries()];
      pending.clear();
      const started = performance.now();
      try {
        for (const [, write] of writes) write();
        resolve();
      } catch (err) {
        // Not on disk: the answers waiting for it fail rather than claim what a restart would
        // lose, and the files stay due (a write always writes the state as it is then).
        for (const [file, write] of writes) if (!pending.has(file)) pending.set(file, write);
        reject(err instanceof Error ? err : new Error(String(err)));
      }
      const ended = performance.now();
      nextWriteAt = ended + (ended - started);
    };
    const wait = nextWriteAt - performance.now();
    if (wait > 0) setTimeout(run, wait);
    else setImmediate(run);
  });
  return commit;
}

/**
 * One emulator's state as one JSON file under the sandbox data folder. Written to a temporary
 * file renamed over the old one, so a crash never leaves half a file (as mail/mailbox.ts does).
 * The live state is in memory; a change is written before the answer that made it leaves
 * (commitStores), else within SAVE_DELAY_MS, together with the changes made meanwhile: writing
 * the whole file on every call made the emulators spend most of their time writing once a few
 * thousand posts were kept (bench/delivery.ts). One process writes a data folder (lock.ts).
 */
export function jsonStore<T>(
  dir: string,
  name: string,
  seed: () => T,
  prune?: (data: T) => void,
): JsonStore<T> {
  const file = path.join(dir, `${name}.json`);
  let data: T;
  try {
    data = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as T) : seed();
  } catch {
    data = seed();
  }
  const write = (): void => {
    fs.mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(store.data));
    fs.renameSync(tmp, file);
  };
  const store: JsonStore<T> = {
    data,
    save() {
      prune?.(store.data);
      pending.set(file, write);
      timer ??= setTimeout(flushStores, SAVE_DELAY_MS);
    },
    reset() {
      store.data = seed();
      store.save();
    },
  };
  return store;
}

/** Uploaded bytes (photos, videos) kept as files beside the JSON state. */
export type BlobStore = {
  put(key: string, bytes: Buffer): void;
  append(key: string, bytes: Buffer): void;
  get(key: string): Buffer | undefined;
  size(key: string): number;
  remove(key: string): void;
  clear(): void;
};

export function blobStore(dir: string): BlobStore {
  const root = path.join(dir, 'blobs');
  const fileOf = (key: string): string => path.join(root, key.replace(/[^\w.-]/g, '_'));
  return {
    put(key, bytes) {
      fs.mkdirSync(root, { recursive: true });
      const tmp = `${fileOf(key)}.tmp`;
      fs.writeFileSync(tmp, bytes);
      fs.renameSync(tmp, fileOf(key));
    },
    append(key, bytes) {
      fs.mkdirSync(root, { recursive: true });
      fs.appendFileSync(fileOf(key), bytes);
    },
    get(key) {
      const f = fileOf(key);
      return fs.existsSync(f) ? fs.readFileSync(f) : undefined;
    },
    size(key) {
      const f = fileOf(key);
      return fs.existsSync(f) ? fs.statSync(f).size : 0;
    },
    remove(key) {
      fs.rmSync(fileOf(key), { force: true });
    },
    clear() {
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
