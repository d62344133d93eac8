// What an operator sees of a running store (issue 32): Prometheus metrics behind a token, and a request
// id in every answer, in the log lines a request causes, in a 5xx answer's body, in its order's
// timeline and in the calls it makes to the supplier.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrder } from '@keystore/contract';
import { FakeKinguin, kinguinProduct } from '../test/fake-kinguin.ts';
import { buildTestApp, type TestApp } from '../test/helper.ts';
import { ordersTestApp, PAYING_CARD, type Buyer, type OrdersTestApp } from '../modules/orders/test-kit.ts';
import { KinguinSupplier } from '../modules/supplier/kinguin.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One sample of a metric from Prometheus's text, or undefined when the series is not there. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => given[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describe('metrics', () => {
  it('has no /metrics without METRICS_TOKEN', async () => {
    const t = await buildTestApp();
    try {
      const answer = await t.app.inject({ url: '/metrics' });
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toHaveProperty('error');
    } finally {
      await t.close();
    }
  });

  describe('with a token', () => {
    let kinguin: FakeKinguin;
    let t: OrdersTestApp;
    let buyer: Buyer;
    const scrape = async () => {
      const answer = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      return answer.body;
    };

    beforeAll(async () => {
      kinguin = await new FakeKinguin().start();
      kinguin.products = Array.from({ length: 4 }, (_, n) => kinguinProduct(n));
      const supplier = new KinguinSupplier({ apiUrl: kinguin.url, apiKey: kinguin.apiKey, timeoutMs: 2000, backoffMs: () => 10 });
      t = await ordersTestApp({ env: { METRICS_TOKEN: TOKEN, SUPPLIER: 'kinguin', SUPPLIER_API_URL: kinguin.url, SUPPLIER_API_KEY: kinguin.apiKey }, supplier });
      buyer = await t.buyer();
    });
    afterAll(async () => {
      await t.close();
      await kinguin.stop();
    });

    it('refuses a scrape without the token, or with another', async () => {
      for (const headers of [{}, { authorization: 'Bearer not-the-token-at-all-000000' }, { authorization: TOKEN }]) {
        const answer = await t.app.inject({ url: '/metrics', headers });
        expect(answer.statusCode).toBe(401);
        expect(answer.json()).toEqual({ error: 'A metrics token is required' });
      }
    });

    it('counts a purchase from placing to its keys, and times requests by their route template', async () => {
      const before = await scrape();
      const gameId = await t.gameWithStock(10, 0);
      const { order } = await t.order(buyer, gameId, 2);
      expect((await t.pay(buyer, order._id)).statusCode).toBe(200);
      await t.app.orders.allocator.drain();
      await t.app.inject({ url: `/api/games/${gameId}` });
      await t.app.inject({ url: '/no/such/page/at/all.php' });

      const after = await scrape();
      const grew = (name: string, labels: Record<string, string>) => (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
      expect(grew('keystore_orders_total', { event: 'placed' })).toBe(1);
      expect(grew('keystore_orders_total', { event: 'paid' })).toBe(1);
      expect(grew('keystore_orders_total', { event: 'delivered' })).toBe(1);
      expect(grew('keystore_keys_delivered_total', { source: 'house' })).toBe(2);
      expect(sample(after, 'keystore_keys_delivered_total', { source: 'declared' })).toBe(0);
      // The route's template, never the path with its id; unknown paths share one series.
      expect(sample(after, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/games/:id', status_code: '200' })).toBeGreaterThanOrEqual(1);
      expect(after).not.toContain(`route="/api/games/${gameId}"`);
      expect(sample(after, 'http_request_duration_seconds_count', { route: 'unmatched', status_code: '404' })).toBeGreaterThanOrEqual(1);
      expect(after).not.toContain('all.php');
      // The store's state, read at the scrape.
      expect(sample(after, 'keystore_ledger_balance_cents')).toBe(0);
      expect(sample(after, 'keystore_paid_lines_waiting')).toBe(0);
      expect(sample(after, 'keystore_mail_outbox_depth')).toBeGreaterThanOrEqual(0);
      expect(sample(after, 'keystore_supplier_sync_last_success_timestamp_seconds')).toBeGreaterThan(Date.now() / 1000 - 600);
      expect(sample(after, 'keystore_ready')).toBe(1);
      expect(sample(after, 'keystore_db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
      // The process's own.
      for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes']) {
        expect(sample(after, name), name).toBeGreaterThanOrEqual(0);
      }
      expect(after).toContain('# TYPE nodejs_gc_duration_seconds histogram');
    });

    it('counts a payment kept waiting for its keys while the supplier is down', async () => {
      const gameId = await t.gameWithStock(10, 1);
      const { order } = await t.order(buyer, gameId, 1);
      kinguin.faults.push(...Array.from({ length: 6 }, () => ({ status: 503 })));
      expect((await t.pay(buyer, order._id)).json()).toMatchObject({ status: 'Paid', deliveryStatus: 'Pending' });
      await t.app.orders.allocator.drain();
      const text = await scrape();
      expect(sample(text, 'keystore_paid_lines_waiting')).toBe(1);
      expect(sample(text, 'keystore_paid_lines_oldest_wait_seconds')).toBeGreaterThanOrEqual(0);
    });
  });
});

describe('request ids', () => {
  let t: TestApp;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    t = await buildTestApp({
      env: { TRUST_PROXY: '1' },
      logger: { level: 'info', stream },
      // A route that fails as an unexpected error would, and logs through the app's logger first, as a module does.
      beforeReady: (app) =>
        app.get('/api/test/fails', async () => {
          app.log.info('working on it');
          throw new Error('something broke');
        }),
    });
  });
  afterAll(() => t.close());

  it('answers a new id with every answer, or the trusted proxy’s when it is well formed', async () => {
    const fresh = await t.app.inject({ url: '/api/health/live' });
    expect(fresh.headers['x-request-id']).toMatch(UUID);
    const other = await t.app.inject({ url: '/api/health/live' });
    expect(other.headers['x-request-id']).not.toBe(fresh.headers['x-request-id']);
    const proxied = await t.app.inject({ url: '/api/health/live', headers: { 'x-request-id': 'edge-1234.abc' } });
    expect(proxied.headers['x-request-id']).toBe('edge-1234.abc');
    const forged = await t.app.inject({ url: '/api/health/live', headers: { 'x-request-id': 'x\ty'.repeat(3) } });
    expect(forged.headers['x-request-id']).toMatch(UUID);
  });

  it('names the request in a 5xx answer and in every log line it causes', async () => {
    const answer = await t.app.inject({ url: '/api/test/fails', headers: { 'x-request-id': 'support-case-77' } });
    expect(answer.statusCode).toBe(500);
    expect(answer.json()).toEqual({ error: expect.any(String), reference: 'support-case-77' });
    const own = lines.filter((line) => line.reqId === 'support-case-77');
    expect(own.map((line) => line.msg)).toEqual(expect.arrayContaining(['working on it', 'request failed']));
    // Never twice in one line (the request's own logger is bound to it already).
    const raw = JSON.stringify(own);
    expect(raw.match(/"reqId"/g)?.length).toBe(own.length);
    // 4xx answers carry no reference.
    const missing = await t.app.inject({ url: '/api/games/no-such-game' });
    expect(missing.json()).not.toHaveProperty('reference');
  });

  it('is kept without TRUST_PROXY only when it is ours', async () => {
    const bare = await buildTestApp();
    try {
      const answer = await bare.app.inject({ url: '/api/health/live', headers: { 'x-request-id': 'client-chosen' } });
      expect(answer.headers['x-request-id']).toMatch(UUID);
    } finally {
      await bare.close();
    }
  });
});

describe('a purchase’s request id', () => {
  let kinguin: FakeKinguin;
  let t: OrdersTestApp;

  beforeAll(async () => {
    kinguin = await new FakeKinguin().start();
    kinguin.products = Array.from({ length: 2 }, (_, n) => kinguinProduct(n));
    const supplier = new KinguinSupplier({ apiUrl: kinguin.url, apiKey: kinguin.apiKey, timeoutMs: 2000, backoffMs: () => 10 });
    t = await ordersTestApp({ env: { TRUST_PROXY: '1', SUPPLIER: 'kinguin', SUPPLIER_API_URL: kinguin.url, SUPPLIER_API_KEY: kinguin.apiKey }, supplier });
  });
  afterAll(async () => {
    await t.close();
    await kinguin.stop();
  });

  it('is in the order’s timeline and in the supplier call it made', async () => {
    const buyer = await t.buyer();
    const admin = await t.buyer('admin');
    const gameId = await t.gameWithStock(5, 0);
    const placed = await t.app.inject({ method: 'POST', url: '/api/orders', headers: { ...buyer.headers, 'x-request-id': 'place-1' }, payload: { items: [{ gameId, quantity: 1 }] }, remoteAddress: buyer.address });
    expect(placed.statusCode).toBe(201);
    const orderId = placed.json<{ order: { _id: string } }>().order._id;
    const paid = await t.app.inject({ method: 'POST', url: `/api/payments/test/${orderId}`, headers: { ...buyer.headers, 'x-request-id': 'pay-1' }, payload: PAYING_CARD, remoteAddress: buyer.address });
    expect(paid.statusCode).toBe(200);
    await t.app.orders.allocator.drain();

    const order = (await t.app.inject({ url: `/api/admin/orders/${orderId}`, headers: admin.headers })).json<AdminOrder>();
    const steps = order.timeline.filter((step) => step.kind === 'status').map((step) => [step.to, step.requestId]);
    expect(steps).toEqual(expect.arrayContaining([['Awaiting payment', 'place-1'], ['Paid', 'pay-1']]));
    const supplierOrder = kinguin.requests.find((request) => request.method === 'POST' && (request.body as { orderExternalId?: string }).orderExternalId === orderId);
    expect(supplierOrder?.requestId).toBe('pay-1');
  });
});
