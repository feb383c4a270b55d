import type { User } from '@tenpo/domain';
import { api } from '@/lib/api-client';

export const changePasswordCall = (body: {
  current_password: string;
  password: string;
  password_confirmation: string;
}) => api<null>('/account-setting/password', { method: 'PUT', body });

export const accountInformationCall = () => api<User>('/account-setting/information');

export const updateAccountInformationCall = (fields: {
  name: string;
  email: string;
  company_name: string | null;
  store_name: string | null;
  phone: string | null;
  /** Needed only when `email` is a new address (ADR 0065). */
  current_password?: string | null;
  logo: File | null;
}) => {
  const fd = new FormData();
  fd.set('name', fields.name);
  fd.set('email', fields.email);
  fd.set('company_name', fields.company_name ?? '');
  fd.set('store_name', fields.store_name ?? '');
  fd.set('phone', fields.phone ?? '');
  if (fields.current_password) fd.set('current_password', fields.current_password);
  if (fields.logo) fd.set('logo_url', fields.logo);
  return api<User>('/account-setting/information', { method: 'POST', body: fd });
};

export const uploadAgencyLogoCall = (logo: File, userId: number) => {
  const fd = new FormData();
  // The store first: the API checks it before it reads the file (issue 22).
  fd.set('user_id', String(userId));
  fd.set('logo', logo);
  return api<User>('/agency/logo', { method: 'POST', body: fd });
};

/** The link mailed to a new login address: makes it the login address (ADR 0065). */
export const confirmEmailChangeCall = (token: string) =>
  api<{ email: string }>('/account-setting/email/confirm', {
    method: 'POST',
    body: { token },
    noAuthRedirect: true,
  });
