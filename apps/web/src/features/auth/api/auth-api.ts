import type { LoginRequest, LoginResponseData, User } from '@tenpo/domain';
import { api } from '@/lib/api-client';

export const loginCall = (body: LoginRequest) =>
  api<LoginResponseData>('/login', { method: 'POST', body, noAuthRedirect: true });

export const forgotPasswordCall = (email: string) =>
  api<null>('/forgot-password', { method: 'POST', body: { email } });

export const resetPasswordCall = (body: {
  password: string;
  password_confirmation: string;
  token: string;
  email: string;
}) => api<null>('/reset-password', { method: 'POST', body });

export type RegistrationBody = {
  full_name: string;
  company_name: string;
  store_name: string;
  email: string;
  phone?: string | null;
  knowledge?: string | null;
  agent_code?: string | null;
  client_company_name?: string | null;
  agency_name?: string | null;
  register_type: 0 | 1;
  agreed_terms: true;
};

export const registrationFormCall = (body: RegistrationBody) =>
  api<null>('/registration-form', { method: 'POST', body });

export const verifyRegisterTokenCall = (token: string) =>
  api<{ email: string }>('/register/verify-token', { method: 'POST', body: { token } });

export const registerCall = (body: {
  email: string;
  password: string;
  password_confirmation: string;
  token: string;
}) => api<null>('/register', { method: 'POST', body });

export const confirmTermCall = (email: string) =>
  api<User>('/confirm-term', { method: 'POST', body: { email, agreed_terms: 1 } });
