import { loginRequest, type LoginRequest } from '@tenpo/domain';

export type LoginField = keyof LoginRequest;
export type LoginCheck = { data: LoginRequest | null; errors: Partial<Record<LoginField, string>> };

/**
 * The login form's rules, the domain schema's (spec 1 §5), with each field's first message.
 * Loaded by the form on first use: /login itself renders without zod (ADR 0017).
 */
export const checkLogin = (values: Record<LoginField, string>): LoginCheck => {
  const r = loginRequest.safeParse(values);
  if (r.success) return { data: r.data, errors: {} };
  const errors: LoginCheck['errors'] = {};
  for (const issue of r.error.issues) {
    const field = issue.path[0];
    if ((field === 'email' || field === 'password') && !errors[field])
      errors[field] = issue.message;
  }
  return { data: null, errors };
};
