import { z } from 'zod';
import { fieldLabels, ja, type FieldName } from '../messages/ja';

/** Password minimum of spec 1 §9. */
export const PASSWORD_MIN = 8;

const label = (f: FieldName): string => fieldLabels[f];

/** A required text: missing, not a string, or blank after trimming gives `{field} を入力してください。`. */
export const requiredText = (f: FieldName, max = 255) =>
  z
    .string({ error: ja.required(label(f)) })
    .trim()
    .min(1, { message: ja.required(label(f)), abort: true })
    .max(max, ja.maxLength(label(f), max));

/** An optional text: absent, null and blank all become null. */
export const optionalText = (f: FieldName, max = 255) =>
  z
    .string({ error: ja.invalidChoice(label(f)) })
    .trim()
    .max(max, ja.maxLength(label(f), max))
    .nullish()
    .transform((v) => (v === undefined || v === null || v === '' ? null : v));

export const emailField = () =>
  z
    .string({ error: ja.required(label('email')) })
    .trim()
    .min(1, ja.required(label('email')))
    .max(255, ja.maxLength(label('email'), 255))
    .pipe(z.email({ error: ja.email }))
    .transform((v) => v.toLowerCase());

export const passwordField = (f: FieldName = 'password') =>
  z
    .string({ error: ja.required(label(f)) })
    .min(1, { message: ja.required(label(f)), abort: true })
    .min(PASSWORD_MIN, ja.minLength(label(f), PASSWORD_MIN))
    .max(255, ja.maxLength(label(f), 255));

/** Phone entered without hyphens: digits only, optional. */
export const phoneField = () =>
  z
    .string({ error: ja.digitsOnly })
    .trim()
    .max(20, ja.maxLength(label('phone'), 20))
    .regex(/^[0-9]*$/, ja.digitsOnly)
    .nullish()
    .transform((v) => (v === undefined || v === null || v === '' ? null : v));

/** The "confirmation equals password" rule on `password_confirmation`, saying `message`. */
export const confirmedWith =
  (message: string) =>
  <T extends { password: string; password_confirmation: string }>(
    value: T,
    ctx: z.RefinementCtx,
  ): void => {
    if (value.password !== value.password_confirmation) {
      ctx.addIssue({ code: 'custom', path: ['password_confirmation'], message });
    }
  };

/** Adds the "confirmation equals password" rule on `password_confirmation`. */
export const confirmed = confirmedWith(ja.passwordMismatch);
