import { describe, expect, it } from 'vitest';
import { credentialHandle, type Grant, type GrantAccess } from '../src/channels/channel';
import { createGoogleCapabilities } from '../src/channels/google/google.channel';
import type { GoogleClient } from '../src/channels/google/google.client';

/**
 * What Tenpo sends Google for a post edit and a listing edit (ADR 0061), read from a recording
 * client: the button is always in a post's update mask (a removed one is cleared), a check
 * carries validateOnly, and getGoogleUpdated's masks come back as top-level fields.
 */
const grant: Grant = {
  accessToken: 'token',
  providerUserId: 'owner@example.com',
  accountId: 'accounts/1',
  entityId: '42',
  pageId: null,
  pageToken: null,
  igUserId: null,
};
const access: GrantAccess = { use: (_h, call) => call(grant) };
const h = credentialHandle(1, 'google_my_business');

const recording = () => {
  const sent: { call: string; args: unknown[] }[] = [];
  const client = {
    patchLocalPost: async (...args: unknown[]) => {
      sent.push({ call: 'patchLocalPost', args });
      return { name: 'accounts/1/locations/42/localPosts/7', summary: 'x', state: 'LIVE' };
    },
    patchLocation: async (...args: unknown[]) => {
      sent.push({ call: 'patchLocation', args });
      return { name: 'locations/42', title: 'x' };
    },
    getGoogleUpdated: async (...args: unknown[]) => {
      sent.push({ call: 'getGoogleUpdated', args });
      return {
        location: { name: 'locations/42', title: 'Google の名前' },
        diffMask: 'title,phone_numbers.primary_phone',
        pendingMask: 'profile.description',
      };
    },
  } as unknown as GoogleClient;
  return { sent, caps: createGoogleCapabilities(client, access) };
};

describe('Google post edits', () => {
  it('a post edited without its button masks callToAction, so Google clears the old one', async () => {
    const { sent, caps } = recording();
    await caps.update?.update(h, '7', { text: 'ボタンなし', media: [] });
    const [, , body, mask] = sent[0]?.args as [string, string, Record<string, unknown>, string];
    expect(mask.split(',')).toContain('callToAction');
    expect(body.callToAction).toBeUndefined();
  });
});

describe('Google listing edits', () => {
  it('a check is sent with validateOnly; an edit without', async () => {
    const { sent, caps } = recording();
    await caps.editLocation?.editLocation(h, { title: 'x' }, 'title', { validateOnly: true });
    await caps.editLocation?.editLocation(h, { title: 'x' }, 'title');
    expect(sent.map((s) => s.args[4])).toEqual([true, false]);
  });

  it("reads Google's version with the listing's read mask and its masks as top-level fields", async () => {
    const { sent, caps } = recording();
    const v = await caps.editLocation?.providerVersion?.(h);
    expect(sent[0]?.args[1]).toBe('42');
    expect(String(sent[0]?.args[2])).toContain('title');
    expect(v?.changed).toEqual(['title', 'phoneNumbers']);
    expect(v?.pending).toEqual(['profile']);
    expect(v?.listing.title).toBe('Google の名前');
  });
});
