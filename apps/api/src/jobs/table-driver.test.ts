import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../db/kysely';
import { migrateToLatest } from '../db/migrate';
import { backoffMs } from './engine';
import { dailyAt, ScheduleError } from './recurrence';
import { createTableQueue } from './table-driver';

// The table driver's bookkeeping on a clock the test moves (the contract suite, on both
// databases and with real time, is apps/api/test/jobs.test.ts).
let handle: DbHandle;
let dir: string;
let t = Date.parse('2026-11-22T00:00:00Z');
const clock = { now: () => new Date(t) };
const log = pino({ level: 'silent' });
const make = () => createTableQueue(handle.db, handle.dialect, clock, { log });

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenpo-jobs-'));
  handle = openDatabase(`sqlite:${path.join(dir, 'jobs.sqlite')}`);
  await migrateToLatest(handle);
});
afterEach(async () => {
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('table driver', () => {
  it('backs off exponentially with jitter, capped at an hour', () => {
    expect(backoffMs(1, () => 0)).toBe(1000);
    expect(backoffMs(1, () => 1)).toBe(2000);
    expect(backoffMs(3, () => 1)).toBe(8000);
    expect(backoffMs(30, () => 1)).toBe(3_600_000);
  });

  it('waits out the back-off before the next attempt', async () => {
    const q = make();
    let calls = 0;
    q.work('flaky', async () => {
      calls += 1;
      if (calls === 1) throw new Error('down');
    });
    await q.enqueue('flaky', {});
    expect(await q.drain()).toBe(1);
    expect(await q.drain()).toBe(0);
    t += 2001;
    expect(await q.drain()).toBe(1);
    expect(calls).toBe(2);
  });

  it('runs a recurring job once per slot, however many workers look', async () => {
    t = Date.parse('2026-11-22T17:55:00Z'); // 02:55 in Tokyo
    const a = make();
    const b = createTableQueue(handle.db, handle.dialect, clock, { log });
    const runs: string[] = [];
    for (const q of [a, b]) {
      q.work('metrics.sync', async (p) => void runs.push((p as { scope: string }).scope));
      await q.schedule({
        name: 'daily-sync',
        cron: dailyAt(3),
        queue: 'metrics.sync',
        payload: { scope: 'all' },
      });
    }
    const row = await handle.db.selectFrom('job_schedules').selectAll().executeTakeFirstOrThrow();
    expect(row.next_run_at).toBe('2026-11-22T18:00:00.000Z');
    expect(await a.drain()).toBe(0);
    t = Date.parse('2026-11-22T18:00:30Z');
    await Promise.all([a.drain(), b.drain()]);
    expect(runs).toEqual(['all']);
    const after = await handle.db.selectFrom('job_schedules').selectAll().executeTakeFirstOrThrow();
    expect(after.next_run_at).toBe('2026-11-23T18:00:00.000Z');
    // Declaring the same schedule again (every start does) keeps its next run; a change moves it.
    await a.schedule({
      name: 'daily-sync',
      cron: dailyAt(3),
      queue: 'metrics.sync',
      payload: { scope: 'all' },
    });
    expect(
      (await handle.db.selectFrom('job_schedules').select('next_run_at').executeTakeFirstOrThrow())
        .next_run_at,
    ).toBe('2026-11-23T18:00:00.000Z');
    await a.schedule({
      name: 'daily-sync',
      cron: dailyAt(4),
      queue: 'metrics.sync',
      payload: { scope: 'all' },
    });
    expect(
      (await handle.db.selectFrom('job_schedules').select('next_run_at').executeTakeFirstOrThrow())
        .next_run_at,
    ).toBe('2026-11-22T19:00:00.000Z');
    // Only daily and every-N-minutes schedules are read (ADR 0078).
    await expect(
      a.schedule({ name: 'weekly', cron: '0 9 * * 1', queue: 'metrics.sync' }),
    ).rejects.toThrow(ScheduleError);
    await a.unschedule('daily-sync');
    expect(await handle.db.selectFrom('job_schedules').selectAll().execute()).toEqual([]);
  });

  it('keeps finished jobs for their retention, then deletes them', async () => {
    t = Date.parse('2026-11-22T00:00:00Z');
    const q = createTableQueue(handle.db, handle.dialect, clock, {
      log,
      retention: { doneMs: 60_000, failedMs: 120_000 },
    });
    q.work('ok', async () => {});
    q.work('bad', async () => {
      throw new Error('no');
    });
    await q.enqueue('ok', {});
    await q.enqueue('bad', {}, { maxAttempts: 1 });
    await q.enqueue('ok', {}, { runAt: new Date(t + 3_600_000) });
    await q.drain();
    t += 60_001;
    expect(await q.cleanup()).toBe(1);
    t += 60_000;
    expect(await q.cleanup()).toBe(1);
    const left = await handle.db.selectFrom('jobs').select('status').execute();
    expect(left).toEqual([{ status: 'queued' }]);
  });
});
