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
