import { z } from 'zod';

/**
 * The largest id a row can have: ids are PostgreSQL `integer`s (serial), so a larger number is
 * no row, and sent to the database it would fail the query rather than find nothing.
 */
export const ID_MAX = 2_147_483_647;

/** An id written out: digits only (no sign, point, exponent, `0x`, space or empty string). */
const ID_TEXT = /^\d{1,10}$/;

/** Is this text an id (digits, 1..ID_MAX)? */
export const isIdText = (s: string): boolean =>
  ID_TEXT.test(s) && Number(s) >= 1 && Number(s) <= ID_MAX;

const wholeId = (message?: string) =>
  z
    .number(message ? { error: message } : undefined)
    .int(message)
    .min(1, message)
    .max(ID_MAX, message);

/** An id written as text (a query value, a form field, one of a comma-separated list). */
export const idText = (message?: string) =>
  z
    .string(message ? { error: message } : undefined)
    .regex(ID_TEXT, message)
    .transform(Number)
    .pipe(wholeId(message));

/**
 * An id as a JSON body, a query string or a form sends it: a whole number, or a string of digits
 * (issue 22 item 8, ASVS 5.0 2.2.1). Nothing else is turned into a number: not `[2]`, `"0x2"`,
 * `"2.0"`, `"1e1"`, `" 2"`, `""` nor `true` (which `z.coerce.number()` took as 1). The one id
 * schema of every request; `message` is the field's error text.
 */
export const idField = (message?: string) =>
  z.union([wholeId(message), idText(message)], message ? { error: message } : undefined);

/** `{ id }` path parameters. */
export const idParams = z.object({ id: idField() });

/** Comma-separated text as its trimmed, non-empty parts (`1, 2,` → `['1', '2']`). */
export const commaParts = (s: string): string[] =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** `user_id` in a query: one store id, or several comma-separated (an agency's selected stores). */
export const storeIdList = z.string().transform(commaParts).pipe(z.array(idText()).min(1));
