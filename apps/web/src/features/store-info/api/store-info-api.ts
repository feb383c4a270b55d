import type { BasicInformation } from '@tenpo/domain';
import { api } from '@/lib/api-client';

/** The store information calls of spec 2 §7 (Entity): one read, three saves. */

export const storeInfoKeys = {
  info: (userId: number) => ['store-info', userId] as const,
};

export const basicInformationCall = async (userId: number): Promise<BasicInformation> =>
  (await api<BasicInformation>('/entity/basic-information', { query: { user_id: userId } })).data;

export type SaveAnswer = { message: string | undefined; data: BasicInformation };

const put = async (path: string, body: Record<string, unknown>): Promise<SaveAnswer> => {
  const r = await api<BasicInformation>(`/entity/${path}`, { method: 'PUT', body });
  return { message: r.message, data: r.data };
};

/** PUT /entity/basic-information: the core information form. */
export const saveCoreCall = (body: Record<string, unknown>) => put('basic-information', body);
/** PUT /entity/business-details: `hours` as JSON text of the periods (spec 2 §7). */
export const saveDetailsCall = (body: Record<string, unknown>) => put('business-details', body);
/** PUT /entity/contact-websites-apps: `email` as a bracketed text list (spec 2 §7). */
export const saveContactsCall = (body: Record<string, unknown>) =>
  put('contact-websites-apps', body);

/** POST /entity/google-version: take Google's values, or send the store's again (ADR 0061). */
export const googleVersionCall = async (
  userId: number,
  choice: 'accept' | 'resend',
): Promise<SaveAnswer> => {
  const r = await api<BasicInformation>('/entity/google-version', {
    method: 'POST',
    body: { user_id: userId, choice },
  });
  return { message: r.message, data: r.data };
};
