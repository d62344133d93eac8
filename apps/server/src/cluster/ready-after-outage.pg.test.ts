// Ready again within a second of PostgreSQL's return, every time (issue 22): two instances on one
// database, a 10 s outage with a supplier sync tick and cut LISTEN connections inside it, and each
// instance's readiness asked once, a second after the database accepts connections again.
// The PostgreSQL server here is the test's own: the machine's shared one is never stopped.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameListAnswer } from '@keystore/contract';
import { canRunOwnPostgres, eventually, ownPostgres, SHARED_POSTGRES, startInstance, type Instance, type OwnPostgres } from '../test/cluster-kit.ts';

const OUTAGE_MS = 10_000;
/** The goal: ready this soon after the database is back. */
const READY_WITHIN_MS = 1000;

describe.skipIf(!SHARED_POSTGRES || !canRunOwnPostgres)('ready again after PostgreSQL returns', () => {
  let database: OwnPostgres;
  let instances: Instance[] = [];

  beforeAll(async () => {
    database = await ownPostgres();
    // A sync every 3 seconds: one is sure to start inside the outage.
    const env = { SUPPLIER_SYNC_CRON: '*/3 * * * * *' };
    instances = [await startInstance({ databaseUrl: database.url, env }), await startInstance({ databaseUrl: database.url, env })];
    for (const instance of instances) {
      await eventually(async () => ((await (await fetch(`${instance.base}/api/games?pageSize=1`)).json()) as GameListAnswer).total > 0, 30_000);
    }
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
    await database?.destroy();
  });

  const readiness = async (instance: Instance) => {
    try {
      return (await fetch(`${instance.base}/api/health/ready`, { signal: AbortSignal.timeout(500) })).status;
    } catch {
      return 0;
    }
  };

  it('has every instance ready within a second of the database accepting connections again', async () => {
    for (const instance of instances) expect(await readiness(instance)).toBe(200);
    await database.stop();
    for (const instance of instances) expect(await eventually(async () => (await readiness(instance)) === 503, 10_000)).toBe(true);
    await sleep(OUTAGE_MS);
    await database.start();
    // Asked as a load balancer with a slow health check would: nothing asks in between, so an
    // instance must find out by itself that the database is back, not on the first ask after it.
    await sleep(READY_WITHIN_MS);
    const answers = await Promise.all(instances.map(readiness));
    console.log(`ready ${READY_WITHIN_MS} ms after a ${OUTAGE_MS / 1000} s outage: ${answers.join(', ')}`);
    expect(answers).toEqual(instances.map(() => 200));
    // And it stays ready: no late LISTEN reconnect or sync failure turns it back to 503.
    for (let check = 0; check < 20; check += 1) {
      for (const instance of instances) expect(await readiness(instance)).toBe(200);
      await sleep(100);
    }
    for (const instance of instances) expect(instance.child.exitCode).toBeNull();
  });
});
