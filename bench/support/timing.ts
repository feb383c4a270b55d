// How a bench times a call in steady state: `warm` calls first (the JIT, the database's buffers
// and caches), then the median of `runs`.

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

/** The median time of `runs` calls of `f` (ms), after `warm` calls not counted. */
export async function timedMedian(
  f: () => Promise<unknown>,
  warm: number,
  runs: number,
): Promise<number> {
  for (let i = 0; i < warm; i++) await f();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await f();
    out.push(performance.now() - t0);
  }
  return median(out);
}
