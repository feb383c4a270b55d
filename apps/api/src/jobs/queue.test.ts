import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { openDatabase, type DbHandle } from '../db/kysely';
import { migrateToLatest } from '../db/migrate';
import { backoffMs, createTableQueue, PermanentJobError } from './queue';

let handle: DbHandle;
let dir: string;
let t = Date.parse('2026-11-22T00:00:00Z');
const clock = { now: () => new Date(t) };
const log = pino({ level: 'silent' });

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-jobs-'));
  handle = openDatabase(`sqlite:${path.join(dir, 'jobs.sqlite')}`);
  await migrateToLatest(handle);
});
afterEach(async () => {
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('table queue', () => {
  it('runs a job once, and an idempotency key makes a second enqueue a no-op', async () => {
    const q = createTableQueue(handle.db, clock, log);
    const seen: unknown[] = [];
    q.handle('mail.send', async (p) => void seen.push(p));
    await q.enqueue('mail.send', { to: 'a' }, { idempotencyKey: 'k1' });
    await q.enqueue('mail.send', { to: 'a' }, { idempotencyKey: 'k1' });
    expect(await q.drain()).toBe(1);
    expect(await q.drain()).toBe(0);
    expect(seen).toEqual([{ to: 'a' }]);
  });

  it('retries a failure later with back-off, then gives up after max attempts', async () => {
    const q = createTableQueue(handle.db, clock, log);
    let calls = 0;
    q.handle('flaky', async () => {
      calls += 1;
      throw new Error('provider down');
    });
    await q.enqueue('flaky', {}, { maxAttempts: 2 });
    await q.drain();
    expect(calls).toBe(1);
    await q.drain();
    expect(calls).toBe(1); // not due yet
    t += 60 * 60 * 1000;
    await q.drain();
    expect(calls).toBe(2);
    const job = await handle.db.selectFrom('jobs').selectAll().executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'failed', attempts: 2, last_error: 'provider down' });
    expect(await q.status()).toMatchObject({ queued: 0, failed: 1 });
  });

  it('does not retry a permanent failure', async () => {
    const q = createTableQueue(handle.db, clock, log);
    q.handle('bad', async () => {
      throw new PermanentJobError('invalid');
    });
    await q.enqueue('bad', {});
    await q.drain();
    expect(
      await handle.db.selectFrom('jobs').select(['status', 'attempts']).executeTakeFirstOrThrow(),
    ).toEqual({ status: 'failed', attempts: 1 });
  });

  it('takes over a job whose worker died once its lock expires (a crash loses nothing)', async () => {
    const dead = createTableQueue(handle.db, clock, log);
    dead.handle('post', () => new Promise(() => {})); // never finishes: the process "dies"
    await dead.enqueue('post', { id: 7 });
    void dead.drain();
    await new Promise((r) => setTimeout(r, 50));
    const running = await handle.db.selectFrom('jobs').select('status').executeTakeFirstOrThrow();
    expect(running.status).toBe('running');

    const next = createTableQueue(handle.db, clock, log);
    const done: unknown[] = [];
    next.handle('post', async (p) => void done.push(p));
    expect(await next.drain()).toBe(0); // still locked
    t += 6 * 60 * 1000;
    expect(await next.drain()).toBe(1);
    expect(done).toEqual([{ id: 7 }]);
  });

  it('backs off exponentially with jitter, capped at an hour', () => {
    expect(backoffMs(1, () => 0)).toBe(1000);
    expect(backoffMs(1, () => 1)).toBe(2000);
    expect(backoffMs(5, () => 1)).toBe(32000);
    expect(backoffMs(30, () => 1)).toBe(3_600_000);
  });
});
