import { z } from 'zod';

/** Success envelope of DESIGN §3. */
export const ok = <T extends z.ZodTypeAny>(data: T) =>
  z.object({ status_code: z.number().int(), message: z.string().optional(), data });

/** Error envelope of DESIGN §3: `errors` maps a field to its messages. */
export const errorEnvelope = z.object({
  status_code: z.number().int(),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

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
