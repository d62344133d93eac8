// SIGTERM and SIGINT together to the whole process group during traffic, as a supervisor stopping
// `npm start` does (DESIGN §6): one shutdown, every request under way answered, exit 0, nothing
// left running. The store runs as `npm start` runs it (scripts/start.ts and its server process),
// and twelve payments are under way, each waiting for the supplier (a fake of the Kinguin API that
// takes a second per call) to hand over its keys.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameListAnswer } from '@keystore/contract';
import { freePort } from '../../../../scripts/server-process.ts';
import { FakeKinguin, kinguinProduct } from '../test/fake-kinguin.ts';
import { CLUSTER_SECRETS, customersIn, eventually, politely, scratchDatabase, SHARED_POSTGRES } from '../test/cluster-kit.ts';

const START_SCRIPT = path.join(import.meta.dirname, '../../../../scripts/start.ts');

describe.skipIf(!SHARED_POSTGRES)('signals to the whole process group during traffic', () => {
  const kinguin = new FakeKinguin();
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'keystore-signals-'));

  beforeAll(async () => {
    await kinguin.start();
    kinguin.products = Array.from({ length: 3 }, (_, n) => kinguinProduct(n, { qty: 1000 }));
    scratch = await scratchDatabase(SHARED_POSTGRES!, 'signals');
  });
  afterAll(async () => {
    await scratch?.drop();
    await kinguin.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shuts down once, answers every request under way, and exits 0', { timeout: 180_000 }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const store = spawn(process.execPath, [START_SCRIPT], {
      env: {
        ...process.env,
        DATABASE_URL: scratch.url,
        DATA_DIR: dataDir,
        PORT: String(port),
        LOG_LEVEL: process.env.SIGNALS_LOG_LEVEL ?? 'warn',
        SUPPLIER: 'kinguin',
        SUPPLIER_API_URL: kinguin.url,
        SUPPLIER_API_KEY: kinguin.apiKey,
        // The 12 buyers all call from this machine and hold their orders unpaid at once: the
        // per-address caps on unpaid orders (decision 016) are scaled away, as in the cluster kit.
        RATE_LIMIT_SCALE: '1000',
        ...CLUSTER_SECRETS,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A process group of its own: the start script and the server, as under a supervisor.
      detached: true,
    });
    let output = '';
    store.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    store.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | string>((resolve) => store.once('exit', (code, signal) => resolve(signal ?? code ?? 0)));
    try {
      const listed = await eventually(async () => {
        const list = (await (await fetch(`${base}/api/games?pageSize=3`)).json()) as GameListAnswer;
        return list.total > 0 ? list : undefined;
      }, 120_000, 200);
      expect(listed?.total, output).toBeGreaterThan(0);
      const buyers = await customersIn(scratch.url, 12);

      // Orders first, then every payment, each waiting for the supplier (a second per call).
      const orders = await Promise.all(
        buyers.map(async (buyer, n) => {
          const placed = await politely(`${base}/api/orders`, { method: 'POST', headers: buyer.headers, body: JSON.stringify({ items: [{ gameId: listed!.items[n % listed!.items.length]!._id, quantity: 1 }] }) });
          expect(placed.status).toBe(201);
          return { buyer, orderId: ((await placed.json()) as { order: { _id: string } }).order._id };
        }),
      );
      kinguin.orderDelayMs = 1000;
      const supplierOrders = () => kinguin.requests.filter((request) => request.method === 'POST' && request.url.startsWith('/v2/order')).length;
      const ordersBefore = supplierOrders();
      const payments = orders.map(({ buyer, orderId }) =>
        fetch(`${base}/api/payments/test/${orderId}`, { method: 'POST', headers: buyer.headers, body: JSON.stringify({ cardNumber: '4242424242424242', expiry: '12/39', cvc: '123', name: 'Signal Buyer' }) })
          .then(async (answer) => ({ status: answer.status, body: (await answer.json()) as { status?: string; deliveryStatus?: string } }))
          .catch((error: Error) => ({ status: 0, body: { error: error.message } })),
      );
      // Signal once every payment is with the supplier: all twelve are requests under way.
      expect(await eventually(async () => supplierOrders() - ordersBefore >= orders.length, 30_000, 10)).toBe(true);
      process.kill(-store.pid!, 'SIGTERM');
      process.kill(-store.pid!, 'SIGINT');
      process.kill(-store.pid!, 'SIGTERM');

      const answers = await Promise.all(payments);
      expect(await exited, output).toBe(0);
      // Every request under way was answered in full, keys included: none was cut.
      expect(answers, JSON.stringify(answers)).toEqual(orders.map(() => ({ status: 200, body: expect.objectContaining({ status: 'Paid', deliveryStatus: 'Delivered' }) })));
      expect(output).not.toMatch(/request failed|unhandled/i);
      // Nothing left behind in the group.
      expect(() => process.kill(-store.pid!, 0)).toThrow();
    } finally {
      kinguin.orderDelayMs = 0;
      try {
        process.kill(-store.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
});
