// kill -9 in the middle of a purchase burst (decision 013): every paid order still gets its keys,
// its receipt and its notification, within seconds, from the restarted process or from a surviving
// instance, because a delivery is owned by an advisory lock that dies with its process. The
// supplier is a fake of the Kinguin API on loopback whose orders take a while, so deliveries are
// under way when the process dies.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameListAnswer } from '@keystore/contract';
import { openDatabase, queryRows, type Database } from '../db/client.ts';
import { FakeKinguin, kinguinProduct } from '../test/fake-kinguin.ts';
import { customersIn, eventually, purchase, scratchDatabase, SHARED_POSTGRES, startInstance, type Instance } from '../test/cluster-kit.ts';

const BUYERS = 24;

describe.skipIf(!SHARED_POSTGRES)('kill -9 during a purchase burst (PostgreSQL, real servers)', () => {
  const kinguin = new FakeKinguin();
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  let database: Database;
  const instances: Instance[] = [];

  const start = async () => {
    const instance = await startInstance({
      databaseUrl: scratch.url,
      env: { SUPPLIER: 'kinguin', SUPPLIER_API_URL: kinguin.url, SUPPLIER_API_KEY: kinguin.apiKey, SUPPLIER_TIMEOUT_MS: '5000' },
    });
    instances.push(instance);
    return instance;
  };

  beforeAll(async () => {
    await kinguin.start();
    kinguin.products = Array.from({ length: 3 }, (_, n) => kinguinProduct(n, { qty: 1000 }));
    scratch = await scratchDatabase(SHARED_POSTGRES!, 'crash');
    database = await openDatabase({ url: scratch.url });
  });
  afterAll(async () => {
    kinguin.orderDelayMs = 0;
    await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
    await database?.close();
    await scratch?.drop();
    await kinguin.stop();
  });

  /** Paid orders, how many of them have their keys, their receipt mail and their keys-delivered notification. */
  const paidOrders = () =>
    queryRows<{ paid: number; delivered: number; receipts: number; notified: number; keys: number }>(
      database.db,
      sql`select count(*)::int as paid,
            count(*) filter (where o.delivery_status = 'Delivered')::int as delivered,
            (select count(*)::int from mail_outbox m join users u on u.email = m."to" where m.subject like '%your keys are ready') as receipts,
            (select count(*)::int from notifications n where n.kind = 'keys-delivered') as notified,
            (select count(*)::int from product_keys) as keys
          from orders o where o.status = 'Paid'`,
    ).then((rows) => rows[0]!);

  async function burstAndKill(victim: Instance): Promise<number> {
    const games = (await (await fetch(`${victim.base}/api/games?pageSize=3`)).json()) as GameListAnswer;
    const buyers = await customersIn(scratch.url, BUYERS);
    const before = (await paidOrders()).paid;
    // The supplier takes 1.5 s per call: deliveries are under way when the process dies.
    kinguin.orderDelayMs = 1500;
    const burst = buyers.map((buyer, n) => purchase(victim.base, buyer.headers, games.items[n % games.items.length]!._id).catch(() => undefined));
    await eventually(async () => (await paidOrders()).paid - before >= BUYERS / 2, 20_000, 20);
    victim.child.kill('SIGKILL');
    expect(await victim.exited).toBe('SIGKILL');
    await Promise.all(burst);
    // The supplier stays slowish while the deliveries are taken over.
    kinguin.orderDelayMs = 300;
    const state = await paidOrders();
    // Some paid orders were cut off before their keys: what the recovery must finish.
    expect(state.paid - state.delivered).toBeGreaterThan(0);
    return state.paid;
  }

  it('the restarted process delivers every paid order within 10 s of its start, each with its receipt and notification', { timeout: 120_000 }, async () => {
    const victim = await start();
    await eventually(async () => ((await (await fetch(`${victim.base}/api/games?pageSize=1`)).json()) as GameListAnswer).total > 0, 30_000);
    const paid = await burstAndKill(victim);

    const restartedAt = Date.now();
    await start();
    const state = await eventually(async () => {
      const current = await paidOrders();
      return current.delivered === paid ? current : undefined;
    }, 10_000 - (Date.now() - restartedAt));
    expect(state, 'every paid order delivered within 10 s of the restart').toBeDefined();
    expect(state).toMatchObject({ paid, delivered: paid, receipts: paid, notified: paid, keys: paid });
    console.log(`kill -9 then restart: ${paid} paid orders all delivered ${Date.now() - restartedAt} ms after the restart began`);
  });

  it('a surviving instance takes over the deliveries of an instance killed mid-burst, within seconds', { timeout: 120_000 }, async () => {
    const survivor = instances.at(-1)!;
    const victim = await start();
    const paid = await burstAndKill(victim);
    const killedAt = Date.now();
    const state = await eventually(async () => {
      const current = await paidOrders();
      return current.delivered === paid ? current : undefined;
    }, 20_000);
    expect(state, 'every paid order delivered by the survivor').toBeDefined();
    expect(state).toMatchObject({ paid, delivered: paid, receipts: paid, notified: paid, keys: paid });
    expect(survivor.child.exitCode).toBeNull();
    console.log(`kill -9 with a survivor: ${paid} paid orders all delivered ${Date.now() - killedAt} ms after the kill`);
  });
});
