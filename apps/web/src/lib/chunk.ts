import { createStore } from './store';

/** Chunk load time-out of spec 1 §9: a screen that has not arrived by then is reported. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  constructor(readonly timedOut: boolean) {
    super(timedOut ? 'chunk load timed out' : 'chunk load failed');
    this.name = 'ChunkLoadError';
  }
}

type Reporter = (e: ChunkLoadError) => void;
let report: Reporter = () => {};
export const setChunkReporter = (r: Reporter): void => {
  report = r;
};

/**
 * True once a lazily loaded screen has been asked for. Until then the page is one the entry
 * draws by itself (/login, Page Not Found), which shows no toast and no navigation: the toasts'
 * container and the progress bar are mounted from then on (ADR 0017).
 */
export const chunkRequested = createStore(false);

/** Loads a lazily imported screen, reporting a failure or a load slower than 120 s. */
export const loadChunk = <T>(
  load: () => Promise<T>,
  timeoutMs = CHUNK_LOAD_TIMEOUT_MS,
): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    if (!chunkRequested.get()) chunkRequested.set(true);
    const timer = setTimeout(() => {
      const e = new ChunkLoadError(true);
      report(e);
      reject(e);
    }, timeoutMs);
    load().then(
      (m) => {
        clearTimeout(timer);
        resolve(m);
      },
      () => {
        clearTimeout(timer);
        const e = new ChunkLoadError(false);
        report(e);
        reject(e);
      },
    );
  });
