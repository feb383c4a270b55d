// Preloaded (`--import`) into every process bench/memory.mjs measures, with --expose-gc. On
// SIGUSR2 it collects garbage twice and writes its memory figures, as one JSON line, to the file
// BENCH_MEMORY_OUT names, so that each process is measured the same way after it settles.
import fs from 'node:fs';
import v8 from 'node:v8';

const out = process.env.BENCH_MEMORY_OUT;
if (out && typeof globalThis.gc === 'function') {
  process.on('SIGUSR2', () => {
    globalThis.gc();
    globalThis.gc();
    const m = process.memoryUsage();
    const spaces = Object.fromEntries(
      v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.space_used_size]),
    );
    // BENCH_HEAP_SNAPSHOT: also a heap snapshot, for bench/memory.mjs --heap.
    if (process.env.BENCH_HEAP_SNAPSHOT) v8.writeHeapSnapshot(process.env.BENCH_HEAP_SNAPSHOT);
    fs.writeFileSync(out, `${JSON.stringify({ ...m, spaces })}\n`);
  });
}
