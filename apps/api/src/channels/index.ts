import type { Config } from '../config';
import type { Clock } from '../lib/clock';
import type { Channels } from './channel';
import { createFacebookChannel, type FacebookPagesChannel } from './facebook/facebook.channel';
import { createFacebookClient } from './facebook/facebook.client';
import { createGoogleChannel, type GoogleBusinessChannel } from './google/google.channel';
import { createGoogleClient } from './google/google.client';
import { sleep, type HttpDeps } from './http';
import { createInstagramChannel } from './instagram/instagram.channel';
import { createXChannel } from './x/x.channel';
import { createXClient } from './x/x.client';

export type ChannelSet = {
  all: Channels;
  google: GoogleBusinessChannel;
  facebook: FacebookPagesChannel;
  http: HttpDeps;
};

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
    ...overrides,
  };
  const now = () => clock.now();
  const google = createGoogleChannel(createGoogleClient(config.channels.google, http), now);
  const facebook = createFacebookChannel(createFacebookClient(config.channels.facebook, http), now);
  const x = createXChannel(createXClient(config.channels.x, http), now);
  return {
    all: {
      google_my_business: google,
      facebook,
      instagram: createInstagramChannel(facebook),
      twitter: x,
    },
    google,
    facebook,
    http,
  };
}
