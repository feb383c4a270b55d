import { PUBLISHER_KEYS, type PublisherKey } from '@tenpo/domain';
import type { Config } from '../config';
import type { Clock } from '../lib/clock';
import {
  ChannelError,
  type Capabilities,
  type Capability,
  type ChannelRegistry,
  type Channels,
  type GrantAccess,
  type RegisteredChannel,
} from './channel';
import { createFacebookCapabilities, createFacebookChannel } from './facebook/facebook.channel';
import { createFacebookClient } from './facebook/facebook.client';
import { createGoogleCapabilities, createGoogleChannel } from './google/google.channel';
import { createGoogleClient } from './google/google.client';
import { meteredFetch, sleep, TIMEOUT_MS, type HttpDeps } from './http';
import { createInstagramCapabilities, createInstagramChannel } from './instagram/instagram.channel';
import { createXCapabilities, createXChannel } from './x/x.channel';
import { createXClient } from './x/x.client';

export type ChannelSet = {
  /** The OAuth side of every channel, by publisher key. */
  all: Channels;
  http: HttpDeps;
  /**
   * The registry of every channel's capabilities, bound to the way credential handles are
   * resolved (the publisher module's grant access, which owns the tokens and their refresh).
   */
  registry(access: GrantAccess): ChannelRegistry;
};

/** A registry over channels built elsewhere (tests build one over a single channel). */
export function registryOf(
  oauth: Channels,
  capabilities: Readonly<Record<PublisherKey, Capabilities>>,
): ChannelRegistry {
  const entries = Object.fromEntries(
    PUBLISHER_KEYS.map((key) => [key, { key, oauth: oauth[key], can: capabilities[key] }]),
  ) as Record<PublisherKey, RegisteredChannel>;
  return {
    get: (key) => entries[key],
    require<C extends Capability>(key: PublisherKey, capability: C) {
      const c = entries[key].can[capability];
      if (!c) throw new ChannelError('invalid', `${key} has no ${capability}`, null, null, key);
      return c as NonNullable<Capabilities[C]>;
    },
    having: (capability) =>
      PUBLISHER_KEYS.map((k) => entries[k]).filter((e) => !!e.can[capability]),
  };
}

/** Every channel, built from config alone: base URLs and credentials are all that differ. */
export function createChannels(
  config: Pick<Config, 'channels'>,
  clock: Clock,
  overrides: Partial<HttpDeps> = {},
): ChannelSet {
  const http: HttpDeps = {
    fetch: globalThis.fetch,
    maxWaitMs: config.channels.maxWaitMs,
    sleep,
    now: () => Date.now(),
    timeoutMs: TIMEOUT_MS,
    ...overrides,
  };
  const now = () => clock.now();
  // Each client's calls are counted under its provider (Instagram goes through Graph: facebook).
  const via = (channel: string): HttpDeps => ({
    ...http,
    fetch: meteredFetch(channel, http.fetch),
  });
  const googleClient = createGoogleClient(config.channels.google, via('google'));
  const facebookClient = createFacebookClient(config.channels.facebook, via('facebook'));
  const xClient = createXClient(config.channels.x, via('x'));
  const facebook = createFacebookChannel(facebookClient, now);
  const all: Channels = {
    google_my_business: createGoogleChannel(googleClient, now),
    facebook,
    instagram: createInstagramChannel(facebook),
    twitter: createXChannel(xClient, now),
  };
  return {
    all,
    http,
    registry: (access) =>
      registryOf(all, {
        google_my_business: createGoogleCapabilities(googleClient, access),
        facebook: createFacebookCapabilities(facebookClient, access),
        instagram: createInstagramCapabilities(facebookClient, access, http.sleep, now),
        twitter: createXCapabilities(xClient, access, http.sleep),
      }),
  };
}
