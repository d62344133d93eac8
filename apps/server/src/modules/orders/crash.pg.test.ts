// The real server killed (SIGKILL) right after a payment is committed and before its keys are
// allocated, by the test's own hook (test/crash-after-payment.ts, loaded with `node --import`); after a restart without it the
// start-up sweep delivers the order. On PostgreSQL: the server process and the test share it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateOrderAnswer, GameListAnswer, Order, Purchase } from '@keystore/contract';
import { freePort, serverNodeFlags } from '../../../../../scripts/server-process.ts';
import { openDatabase, queryRows, type Database } from '../../db/client.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { SessionService } from '../auth/sessions.ts';
import { UsersService } from '../users/service.ts';
import { testConfig } from '../../test/helper.ts';

const serverUrl = process.env.DATABASE_URL;
const JWT_SECRET = 'crash-test-secret-crash-test-secret-0123';

describe.skipIf(!serverUrl)('a crash between the payment and the keys (PostgreSQL, real server)', () => {
  const name = `keystore_crash_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'keystore-crash-'));
  let url: string;
  let database: Database;
  let server: ChildProcess | undefined;
  let base: string;

  async function admin(query: string): Promise<void> {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(query);
    await client.end();
  }

  async function start(options: { crashAfterPayment: boolean }): Promise<ChildProcess> {
    const hook = options.crashAfterPayment ? ['--import', path.join(import.meta.dirname, '../../test/crash-after-payment.ts')] : [];
    const child = spawn(process.execPath, [...serverNodeFlags({ DATABASE_URL: url }), ...hook, path.join(import.meta.dirname, '../../main.ts')], {
      env: { ...process.env, DATABASE_URL: url, DATA_DIR: dataDir, PORT: new URL(base).port, LOG_LEVEL: 'silent', DEMO_MARKET: 'off', JWT_SECRET, KEY_ENCRYPTION_KEY: '1'.repeat(64) },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    for (const deadline = Date.now() + 60_000; ; ) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited with ${child.exitCode ?? child.signalCode}`);
      try {
        const games = (await (await fetch(`${base}/api/games?pageSize=1`)).json()) as GameListAnswer;
        if (games.total > 0) return child;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error('the server was not ready within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const exited = (child: ChildProcess) =>
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve(child.signalCode ?? child.exitCode)
      : new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));

  beforeAll(async () => {
    await admin(`CREATE DATABASE "${name}"`);
    const target = new URL(serverUrl!);
    target.pathname = `/${name}`;
    url = target.toString();
    database = await openDatabase({ url });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      await exited(server);
    }
    await database?.close();
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers the paid order at the next start', { timeout: 180_000 }, async () => {
    server = await start({ crashAfterPayment: true });

    // A customer made straight in the database, with a session the server accepts (same JWT secret).
    const { config, cleanup } = testConfig({ JWT_SECRET });
    cleanup();
    const user = await new UsersService(database, config).create({ username: 'Crash_Tester', email: 'crash.tester@gmail.com', passwordHash: await hashPassword('Secret123'), verified: true });
    const token = await new SessionService(database, JWT_SECRET).open(user.id, { ip: '127.0.0.1', userAgent: 'crash-test' });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const call = (pathname: string, body?: unknown) =>
      fetch(`${base}${pathname}`, body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) });

    const [game] = ((await (await fetch(`${base}/api/games?pageSize=1&sort=popularity`)).json()) as GameListAnswer).items;
    const placed = await call('/api/orders', { items: [{ gameId: game!._id, quantity: 2 }] });
    expect(placed.status).toBe(201);
    const { order } = (await placed.json()) as CreateOrderAnswer;

    // The server dies while answering the payment.
    await expect(call(`/api/payments/test/${order._id}`, { cardNumber: '4242424242424242', expiry: '12/39', cvc: '123', name: 'Crash Tester' })).rejects.toThrow();
    expect(await exited(server)).toBe('SIGKILL');
    const [afterCrash] = await queryRows<{ status: string; delivery_status: string; keys: number }>(
      database.db,
      sql`select status, delivery_status, (select count(*)::int from product_keys where order_id = orders.id) as keys from orders where id = ${order._id}`,
    );
    expect(afterCrash).toEqual({ status: 'Paid', delivery_status: 'Pending', keys: 0 });

    server = await start({ crashAfterPayment: false });
    let current: Order | undefined;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
      current = (await (await call(`/api/orders/${order._id}`)).json()) as Order;
      if (current.deliveryStatus === 'Delivered') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(current).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered', lines: [{ quantity: 2, keysDelivered: 2 }] });
    const library = (await (await call('/api/purchases')).json()) as Purchase[];
    expect(library.filter((purchase) => purchase.orderId === order._id)).toHaveLength(2);
  });
});
