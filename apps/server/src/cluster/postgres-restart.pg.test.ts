// PostgreSQL restarted under a running instance (DESIGN §6): the process stays up, readiness goes
// 503 while the database is away and 200 when it is back, and live notifications still arrive
// afterwards, including one announced while the instance's listening connection was cut.
// The PostgreSQL server here is the test's own: the machine's shared one is never stopped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { GameListAnswer } from '@keystore/contract';
import { canRunOwnPostgres, eventually, ownPostgres, SHARED_POSTGRES, startInstance, type Instance, type OwnPostgres } from '../test/cluster-kit.ts';

describe.skipIf(!SHARED_POSTGRES || !canRunOwnPostgres)('PostgreSQL restarted under a running instance', () => {
  let database: OwnPostgres;
  let instance: Instance;
  let stream: { events: string[]; close: () => void };

  /** A visitor's live notification stream, collecting the ids of the notifications it is sent. */
  async function openStream(base: string): Promise<{ events: string[]; close: () => void }> {
    const controller = new AbortController();
    const answer = await fetch(`${base}/api/notifications/stream?sessionId=cluster-visitor`, { signal: controller.signal, headers: { 'x-session-id': 'cluster-visitor' } });
    expect(answer.status).toBe(200);
    const events: string[] = [];
    void (async () => {
      const decoder = new TextDecoder();
      let buffered = '';
      try {
        for await (const chunk of answer.body!) {
          buffered += decoder.decode(chunk as Uint8Array, { stream: true });
          // Each complete frame once, as EventSource reads them: a notification sent twice shows twice.
          const frames = buffered.split('\n\n');
          buffered = frames.pop()!;
          for (const frame of frames) {
            const id = /^id: (\S+)$/m.exec(frame)?.[1];
            if (id) events.push(id);
          }
        }
      } catch {
        // aborted at the end of the test
      }
    })();
    return { events, close: () => controller.abort() };
  }

  /** A public notification written and announced as the store does it (one statement: row and NOTIFY). */
  async function announce(id: string): Promise<void> {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const notification = { _id: id, title: 'Back online', text: 'Announced after the restart', generatedAt: new Date().toISOString(), rawTimestamp: Date.now(), isRead: false, isPublic: true, link: null };
    await client.query(
      `with inserted as (insert into notifications (id, user_id, title, text, kind, link, created_at) values ($1, null, $2, $3, 'news', null, now()) returning id)
       select pg_notify('notifications_created', $4) from inserted`,
      [id, notification.title, notification.text, JSON.stringify({ userId: null, notification })],
    );
    await client.end();
  }

  const readiness = async () => (await fetch(`${instance.base}/api/health/ready`)).status;

  beforeAll(async () => {
    database = await ownPostgres();
    instance = await startInstance({ databaseUrl: database.url });
    await eventually(async () => ((await (await fetch(`${instance.base}/api/games?pageSize=1`)).json()) as GameListAnswer).total > 0, 30_000);
    stream = await openStream(instance.base);
  });
  afterAll(async () => {
    stream?.close();
    await instance?.stop('SIGKILL');
    await database?.destroy();
  });

  it('stays up, reports not ready while the database is down, recovers, and keeps delivering live notifications', async () => {
    expect(await readiness()).toBe(200);
    await database.stop();
    expect(await eventually(async () => (await readiness()) === 503, 10_000)).toBe(true);
    // Reads the index holds go on being answered while the database is away.
    expect((await fetch(`${instance.base}/api/games?pageSize=1`)).status).toBe(200);

    const restartedAt = Date.now();
    await database.start();
    expect(await eventually(async () => (await readiness()) === 200, 30_000)).toBe(true);
    const recoveryMs = Date.now() - restartedAt;
    expect(instance.child.exitCode).toBeNull();

    await announce('after-restart-1');
    expect(await eventually(async () => stream.events.includes('after-restart-1'), 15_000)).toBe(true);
    console.log(`PostgreSQL restart: ready again ${recoveryMs} ms after the database started; live notifications flow again`);
  });

  it('catches up on a notification announced while its listening connection was cut', async () => {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    // Cut the instance's LISTEN connections, and announce at once, before it can listen again.
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where query like 'LISTEN%' and pid <> pg_backend_pid()`);
    await admin.end();
    await announce('while-cut-1');
    expect(await eventually(async () => stream.events.includes('while-cut-1'), 15_000)).toBe(true);
    expect(stream.events.filter((id) => id === 'while-cut-1')).toHaveLength(1);
    expect(stream.events.filter((id) => id === 'after-restart-1')).toHaveLength(1);
    expect(instance.child.exitCode).toBeNull();
    // No background task failed unhandled through the outage (they are logged, not fatal: the log tells).
    expect(instance.output()).not.toMatch(/unhandled/i);
  });
});
