import type { PhotoItem } from '@tenpo/domain';
import { api, apiUpload } from '@/lib/api-client';

/** The calls of spec 2 §7 (Media) behind /media. */

export const photoKeys = {
  all: ['photos'] as const,
  list: (userId: number) => ['photos', 'list', userId] as const,
};

/** The library; items without a photo_url are already left out by the API (spec 2 §3). */
export const photosCall = async (userId: number): Promise<PhotoItem[]> =>
  (await api<PhotoItem[]>('/photos', { query: { user_id: userId } })).data.filter(
    (p) => !!p.photo_url,
  );

export const deletePhotoCall = (id: number, userId: number) =>
  api<undefined>(`/photos/${id}`, { method: 'DELETE', query: { user_id: userId } });

/** `photos` once per file, as the API reads them; `onProgress` gets 0–1 of the bytes sent. */
export const uploadPhotosCall = (
  userId: number,
  files: readonly File[],
  onProgress: (fraction: number) => void,
) => {
  const form = new FormData();
  form.append('user_id', String(userId));
  for (const f of files) form.append('photos', f, f.name);
  return apiUpload<PhotoItem[]>('/photos/upload', form, onProgress);
};
