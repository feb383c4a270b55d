import type { ErrorEnvelope } from './envelope';

// Apart from the envelope's schema, so that a page which only shows errors loads no zod (web
// ADR 0017).
/** The browser flattens `errors` to lines (spec 1 §8). */
export const flattenErrors = (
  e: Partial<ErrorEnvelope> | null | undefined,
  fallback: string,
): string[] => {
  const lines = Object.values(e?.errors ?? {})
    .flat()
    .filter((l) => l.length > 0);
  if (lines.length > 0) return lines;
  return e?.message ? [e.message] : [fallback];
};
