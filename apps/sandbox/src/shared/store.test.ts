import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildSandbox } from './testing';

let app: FastifyInstance | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await app?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const patchSettings = (a: FastifyInstance, ms: number) =>
  a.inject({
    method: 'PATCH',
    url: '/sandbox/control/settings',
    payload: { google: { postLiveAfterMs: ms } },
  });

describe('an answer leaves once its change is on disk', () => {
  it('is on disk when the answer arrives, without waiting for the timer', async () => {
    ({ app, dataDir } = await buildSandbox());
    expect((await patchSettings(app, 1234)).statusCode).toBe(200);
    const saved = JSON.parse(
      fs.readFileSync(path.join(dataDir, 'sandbox', 'settings.json'), 'utf8'),
    ) as { google: { postLiveAfterMs: number } };
    expect(saved.google.postLiveAfterMs).toBe(1234);
  });

  it('fails the answer when its change cannot be written, and writes it once it can', async () => {
    ({ app, dataDir } = await buildSandbox());
    const file = path.join(dataDir, 'sandbox', 'settings.json');
    // A folder where the state file goes: the rename over it fails.
    fs.mkdirSync(path.join(file, 'blocked'), { recursive: true });
    const res = await patchSettings(app, 4321);
    expect(res.statusCode).toBeGreaterThanOrEqual(500);
    fs.rmSync(file, { recursive: true });
    expect((await patchSettings(app, 4322)).statusCode).toBe(200);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({
      google: { postLiveAfterMs: 4322 },
    });
  });
});
