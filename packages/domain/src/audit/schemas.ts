import { z } from 'zod';
import { idField } from '../ids';
import { auditJa } from '../messages/audit';
import { keysetAdminList, keysetQuery } from '../paging/keyset';
import { addDays, tokyoInstant } from '../tokyo';

/**
 * The audit log (issue 12, ADR 0047): every change to a store, a group, an account, a
 * connection or a post, with who, when, what and the values before and after. Read with
 * `GET /audit-log` by a manager (everything), an agency (its stores and itself) and a store
 * (itself), filtered and paged like the admin lists (`meta`).
 */
export const AUDIT_ENTITIES = [
  'store',
  'group',
  'account',
  'connection',
  'post',
  'agency',
  'review',
] as const;
export type AuditEntityKind = (typeof AUDIT_ENTITIES)[number];
export const AUDIT_ACTIONS = ['create', 'update', 'delete', 'connect', 'disconnect'] as const;
export type AuditActionKind = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_PER_PAGE = 20;
export const AUDIT_MAX_PER_PAGE = 100;

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const day = z
  .string()
  .trim()
  .regex(DAY_RE, auditJa.dayFormat)
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), auditJa.dayInvalid);

/** An empty query value counts as absent (a cleared filter may send `entity=`). */
const orBlank = <T extends z.ZodTypeAny>(t: T) => z.union([z.literal(''), t]).optional();

export const auditLogQuery = z
  .object({
    store_id: orBlank(idField()),
    entity: orBlank(z.enum(AUDIT_ENTITIES)),
    action: orBlank(z.enum(AUDIT_ACTIONS)),
    /** Who made the change: part of an e-mail, or an account id. */
    actor: z.string().trim().max(255).optional(),
    /** First and last day, both inclusive, as Tokyo calendar days. */
    from: orBlank(day),
    to: orBlank(day),
    page: z.coerce.number().int().min(1).default(1),
    per_page: z.coerce.number().int().min(1).max(AUDIT_MAX_PER_PAGE).default(AUDIT_PER_PAGE),
    // Keyset paging (ADR 0098): the cursor of the page before or after, newest first.
    ...keysetQuery.shape,
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: auditJa.toBeforeFrom,
    path: ['to'],
  });
export type AuditLogQuery = z.input<typeof auditLogQuery>;

export const auditRowSchema = z.object({
  id: z.number().int(),
  /** ISO 8601, UTC. */
  at: z.string(),
  /** Null for the system (a job, a sync). */
  actor: z
    .object({
      id: z.number().int(),
      email: z.string().nullable(),
      role: z.number().int().nullable(),
    })
    .nullable(),
  store: z.object({ id: z.number().int(), name: z.string().nullable() }).nullable(),
  entity: z.string(),
  entity_id: z.string().nullable(),
  action: z.string(),
  summary: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditRow = z.infer<typeof auditRowSchema>;

export const auditLogResponse = keysetAdminList(auditRowSchema);
export type AuditLogResponse = z.infer<typeof auditLogResponse>;

/**
 * The UTC instants that bound Tokyo calendar days: `from` at 00:00 Tokyo (inclusive) and the day
 * after `to` at 00:00 Tokyo (exclusive), as ISO strings comparable with the stored `at`.
 */
export const tokyoDayBounds = (
  from?: string,
  to?: string,
): { since: string | null; until: string | null } => {
  const start = (d: string) => new Date(tokyoInstant(d)).toISOString();
  return {
    since: from ? start(from) : null,
    until: to ? start(addDays(to, 1)) : null,
  };
};
