import { z } from 'zod';
import { fieldLabels, ja } from '../messages/ja';
import { DEFAULT_AGENT_CODE } from '../roles/roles';
import {
  confirmed,
  confirmedWith,
  emailField,
  optionalText,
  passwordField,
  phoneField,
  requiredText,
} from './fields';

// ---- Requests (spec 1 §5 validation rules, spec 1 §7 payloads) ----

export const loginRequest = z.object({
  email: emailField(),
  password: passwordField(),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const forgotPasswordRequest = z.object({ email: emailField() });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequest>;

const passwordPair = {
  password: passwordField('password'),
  password_confirmation: passwordField('password_confirmation'),
};

export const resetPasswordRequest = z
  .object({ ...passwordPair, token: requiredText('token', 200), email: emailField() })
  .superRefine(confirmed);
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;

/** The reset-password form in the browser: token and email come from the query string. */
export const passwordPairForm = z.object(passwordPair).superRefine(confirmed);
export type PasswordPairForm = z.infer<typeof passwordPairForm>;

export const verifyTokenRequest = z.object({ token: requiredText('token', 200) });

export const registerRequest = z
  .object({ ...passwordPair, token: requiredText('token', 200), email: emailField() })
  .superRefine(confirmed);
export type RegisterRequest = z.infer<typeof registerRequest>;

/** Keys as in the spec's payload; the messages name the fields as the form does (新しいパスワード). */
export const changePasswordRequest = z
  .object({
    current_password: passwordField('current_password'),
    password: passwordField('new_password'),
    password_confirmation: passwordField('new_password_confirmation'),
  })
  .superRefine(confirmedWith(ja.newPasswordMismatch));
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

/**
 * Account information (multipart text fields; the logo file is checked separately). A new
 * `email` needs `current_password` and takes effect once the link mailed to it is opened
 * (ADR 0065); the other fields change at once.
 */
export const accountInformationRequest = z.object({
  name: requiredText('name'),
  email: emailField(),
  company_name: optionalText('company_name'),
  store_name: optionalText('store_name'),
  phone: phoneField(),
  current_password: z
    .string()
    .max(255, ja.maxLength(fieldLabels.current_password, 255))
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type AccountInformationRequest = z.infer<typeof accountInformationRequest>;

/** The link mailed to a new login address (ADR 0065). */
export const emailChangeConfirmRequest = z.object({ token: requiredText('token', 200) });
export const emailChangeConfirmResponseData = z.object({ email: z.string() });

export const KNOWLEDGE_OPTIONS = [
  'search',
  'article',
  'advertisement',
  'acquaintance',
  'sale',
  'other',
] as const;
export type Knowledge = (typeof KNOWLEDGE_OPTIONS)[number];

/** Full name with a space (half or full width) between family and given name. */
const fullNameField = () =>
  requiredText('full_name', 100).refine((v) => /^\S+[ \u3000]+\S+/.test(v), ja.fullNameSpace);

const booleanish = z.union([
  z.boolean(),
  z.literal(1),
  z.literal(0),
  z.literal('1'),
  z.literal('0'),
  z.literal('true'),
  z.literal('false'),
]);
const toBool = (v: z.infer<typeof booleanish>): boolean =>
  v === true || v === 1 || v === '1' || v === 'true';

export const registrationFormRequest = z.object({
  full_name: fullNameField(),
  company_name: requiredText('company_name'),
  store_name: requiredText('store_name'),
  email: emailField(),
  phone: phoneField(),
  knowledge: z
    .enum(KNOWLEDGE_OPTIONS, { error: ja.invalidChoice(fieldLabels.knowledge) })
    .nullish()
    .transform((v) => v ?? null),
  agent_code: z
    .string({ error: ja.digitsOnly })
    .trim()
    .max(20, ja.maxLength(fieldLabels.agent_code, 20))
    .regex(/^[0-9]*$/, ja.digitsOnly)
    .nullish()
    .transform((v) => (v ? v : DEFAULT_AGENT_CODE)),
  client_company_name: optionalText('client_company_name'),
  agency_name: optionalText('agency_name'),
  register_type: z.coerce
    .number({ error: ja.invalidChoice(fieldLabels.register_type) })
    .int()
    .min(0, ja.invalidChoice(fieldLabels.register_type))
    .max(1, ja.invalidChoice(fieldLabels.register_type))
    .nullish()
    .transform((v) => v ?? 0),
  agreed_terms: booleanish
    .optional()
    .transform((v) => (v === undefined ? false : toBool(v)))
    .refine((v) => v, ja.termsRequired),
});
export type RegistrationFormRequest = z.input<typeof registrationFormRequest>;

export const confirmTermRequest = z.object({
  email: emailField(),
  agreed_terms: z
    .union([z.literal(1), z.literal('1'), z.literal(true)], { error: ja.termsRequired })
    .transform(() => 1 as const),
});

// ---- Responses ----

export const userSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.number().int(),
  is_leader: z.boolean(),
  agreed_terms: z.union([z.literal(0), z.literal(1)]),
  created_at: z.string(),
  phone: z.string().nullable(),
  company_name: z.string().nullable(),
  store_name: z.string().nullable(),
  logo_url: z.string().nullable(),
  agent_code: z.string().nullable(),
  in_trial: z.boolean(),
  trial_ends_at: z.string().nullable(),
  payment_fail: z.boolean(),
  agency_logo: z.string().nullable(),
  status: z.number().int(),
});
export type User = z.infer<typeof userSchema>;

export const loginResponseData = z.object({
  token: z.string(),
  connect_GMB: z.boolean(),
  user: userSchema,
});
export type LoginResponseData = z.infer<typeof loginResponseData>;

export const refreshResponseData = loginResponseData;

export const verifyTokenResponseData = z.object({ email: z.string() });

export const domainTitleResponseData = z.object({
  prefix: z.string(),
  title: z.string(),
  favicon_url: z.string().nullable(),
  logo_url: z.string().nullable(),
});
export type DomainTitle = z.infer<typeof domainTitleResponseData>;
