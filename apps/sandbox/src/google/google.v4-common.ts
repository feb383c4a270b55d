// What the Business Profile v4 routes (local posts, media) share: the caller's location, the
// media rules, and fetching a media URL as Google does.
import type { FastifyRequest } from 'fastify';
import {
  isVideo,
  loadMediaUrl,
  type FetchedMedia,
  type FetchLogEntry,
  type MediaInfo,
} from '../shared/media';
import type { Runtime } from '../shared/runtime';
import type { JsonStore } from '../shared/store';
import { authenticate } from './google.auth';
import { notFound, permissionDenied, v4ValidationError } from './google.errors';
import type { GLocation, GoogleState } from './google.state';

export const SERVICE = 'mybusiness.googleapis.com';
/** A summary containing this marker is REJECTED by the emulator's "review", to exercise that state. */
export const REJECT_MARKER = 'sandbox:reject';

export type Violation = { code: number; field: string; message: string; value?: string };

/** Photo and video rules of Business Profile media (GBP help, as quoted in providers.md §1.7). */
export function mediaViolations(info: MediaInfo, format: string, fieldName: string): Violation[] {
  const v: Violation[] = [];
  if (format === 'PHOTO') {
    if (info.format !== 'jpeg' && info.format !== 'png')
      v.push({ code: 3, field: fieldName, message: 'Unsupported photo format. Use JPG or PNG.' });
    else {
      if (info.bytes < 10 * 1024)
        v.push({
          code: 3,
          field: fieldName,
          message: 'Photo is too small. Minimum size is 10 KB.',
        });
      if (info.bytes > 5 * 1024 * 1024)
        v.push({ code: 3, field: fieldName, message: 'Photo is too large. Maximum size is 5 MB.' });
      if ((info.width ?? 0) < 250 || (info.height ?? 0) < 250)
        v.push({
          code: 3,
          field: fieldName,
          message: 'Photo resolution is too low. Minimum is 250 x 250 pixels.',
        });
    }
  } else if (format === 'VIDEO') {
    if (!isVideo(info.format))
      v.push({ code: 3, field: fieldName, message: 'Unsupported video format.' });
    else {
      if (info.bytes > 75 * 1024 * 1024)
        v.push({
          code: 3,
          field: fieldName,
          message: 'Video is too large. Maximum size is 75 MB.',
        });
      if ((info.durationSeconds ?? 0) > 30)
        v.push({ code: 3, field: fieldName, message: 'Video duration exceeds 30 seconds' });
    }
  } else v.push({ code: 3, field: 'media_format', message: 'media_format must be PHOTO or VIDEO' });
  return v;
}

export type V4Ctx = { rt: Runtime; store: JsonStore<GoogleState> };

/** The location addressed, once the caller is known to manage its account. */
export async function v4Parent(
  { rt, store }: V4Ctx,
  req: FastifyRequest,
  accountId: string,
  locationId: string,
): Promise<GLocation> {
  const caller = await authenticate(req, rt, store, SERVICE, { legacyScope: true });
  const loc = store.data.locations.find((l) => l.id === locationId && l.accountId === accountId);
  if (!loc) throw notFound();
  if (!caller.accountIds.includes(accountId)) throw permissionDenied();
  return loc;
}

export const stamp = (rt: Runtime): string => new Date(rt.now()).toISOString();

export type Loaded = {
  info: MediaInfo;
  bytes?: Buffer;
  fetched?: FetchedMedia;
  entry?: FetchLogEntry;
};
/** A URL Google cannot fetch: answered as recorded (fixtures/google-errors), no field, no value. */
export const loadBytes = async (rt: Runtime, url: string): Promise<Loaded> => {
  const got = await loadMediaUrl(rt, 'google', url, 80 * 1024 * 1024);
  if (!got.ok) throw v4ValidationError([{ code: 1000, message: 'Fetching image failed.' }]);
  return got;
};
