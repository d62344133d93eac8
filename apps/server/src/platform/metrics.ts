// The store's metrics in Prometheus's text format (issue 32), through prom-client: each instance
// answers for itself. Names follow Prometheus's conventions (base units, `_total` counters) and every
// label takes a bounded set of values (a route's template, never its path; no seller or order id).
// What is counted is counted where it happens, in this process; what is a state of the store (keys
// waiting, the outbox, the ledger) is read from its owner when Prometheus asks.
import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { StoreEventBus } from './events.ts';

/** Seconds: from a fast catalogue answer to a slow purchase. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: a seller's webhook answers within its deadline (5 s by default), with retries. */
const PROVIDE_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Seconds: a sync of a few games to 70,000 titles. */
const SYNC_BUCKETS = [0.5, 1, 5, 10, 30, 60, 120, 300, 600];

export type OrderEvent = 'placed' | 'paid' | 'delivered' | 'refunded' | 'disputed';
export type ReservationOutcome = 'reserved' | 'refused' | 'provided' | 'failed';

/** One read of the store's state for a scrape; each field from the module that owns it. */
export interface StoreState {
  keysWaiting: () => Promise<{ lines: number; oldestSeconds: number }>;
  outbox: () => Promise<{ depth: number; oldestSeconds: number }>;
  ledger: () => Promise<{ totalCents: number; payoutsDueCents: number }>;
  lastSyncSuccess: () => Promise<Date | null>;
  pool: () => { inUse: number; idle: number; waiting: number };
  ready: () => boolean;
}

/** The default process and Node.js metrics, once per process (they measure the process, not an app). */
let processRegistry: Registry | undefined;

/**
 * How often the event loop's delay is sampled, in ms. prom-client's 10 ms woke a quiet server 100
 * times a second: 0.8–1.2 % of a core at rest against 0.2–0.5 % without the metrics, where the
 * store holds a quiet server to 1 % (bench/catalog.ts). At 100 ms it is 0.3 %, and a stall still
 * shows: each sample is the delay at a random moment, ten a second, 150 a scrape.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  }
  return processRegistry;
}

export class Metrics {
  private readonly registry = new Registry();
  private readonly process = processMetrics();
  readonly http: Histogram<'method' | 'route' | 'status_code'>;
  readonly orders: Counter<'event'>;
  readonly keysDelivered: Counter<'source'>;
  readonly reservations: Counter<'outcome'>;
  readonly provideDuration: Histogram<'outcome'>;
  readonly syncDuration: Histogram<'outcome'>;
  readonly syncRuns: Counter<'outcome'>;
  readonly rateLimited: Counter<'route'>;

  constructor() {
    const registers = [this.registry];
    this.http = new Histogram({ name: 'http_request_duration_seconds', help: 'Time to answer a request, by route template and status.', labelNames: ['method', 'route', 'status_code'], buckets: HTTP_BUCKETS, registers });
    this.orders = new Counter({ name: 'keystore_orders_total', help: 'Orders placed, paid, delivered, refunded and disputed on this instance.', labelNames: ['event'], registers });
    this.keysDelivered = new Counter({ name: 'keystore_keys_delivered_total', help: 'Keys delivered, by where they came from: the house (supplier or shelf), a seller’s uploaded keys, or a declared seller’s webhook.', labelNames: ['source'], registers });
    this.reservations = new Counter({ name: 'keystore_seller_reservations_total', help: 'Declared sellers’ reservations and provides, by outcome.', labelNames: ['outcome'], registers });
    this.provideDuration = new Histogram({ name: 'keystore_seller_provide_duration_seconds', help: 'Time for a declared seller to hand over a reservation’s keys, retries included.', labelNames: ['outcome'], buckets: PROVIDE_BUCKETS, registers });
    this.syncDuration = new Histogram({ name: 'keystore_supplier_sync_duration_seconds', help: 'Supplier catalogue syncs run by this instance.', labelNames: ['outcome'], buckets: SYNC_BUCKETS, registers });
    this.syncRuns = new Counter({ name: 'keystore_supplier_sync_runs_total', help: 'Supplier catalogue syncs run by this instance, by outcome (failed ones are the sync errors).', labelNames: ['outcome'], registers });
    this.rateLimited = new Counter({ name: 'keystore_rate_limit_refusals_total', help: 'Requests refused by a rate limit (429), by route template.', labelNames: ['route'], registers });
    for (const event of ['placed', 'paid', 'delivered', 'refunded', 'disputed'] as const) this.orders.inc({ event }, 0);
    for (const source of ['house', 'uploaded', 'declared'] as const) this.keysDelivered.inc({ source }, 0);
    for (const outcome of ['reserved', 'refused', 'provided', 'failed'] as const) this.reservations.inc({ outcome }, 0);
    for (const outcome of ['succeeded', 'failed'] as const) this.syncRuns.inc({ outcome }, 0);
  }

  /** Counts the orders' lives and the keys delivered as the modules tell them on the bus. */
  hear(events: StoreEventBus): void {
    events.on('order-placed', () => this.orders.inc({ event: 'placed' }));
    events.on('order-paid', () => this.orders.inc({ event: 'paid' }));
    events.on('order-refunded', () => this.orders.inc({ event: 'refunded' }));
    events.on('order-disputed', () => this.orders.inc({ event: 'disputed' }));
    // Told inside the delivery's transaction: a delivery that then rolled back is counted too (rare; counters need not be exact).
    events.on('order-delivered', ({ sources }) => {
      this.orders.inc({ event: 'delivered' });
      for (const [source, count] of Object.entries(sources)) if (count > 0) this.keysDelivered.inc({ source }, count);
    });
  }

  /**
   * The gauges read from the store at each scrape. prom-client collects every metric of a scrape at
   * once, so the gauges share one read of the store (each owner asked once). A read that fails
   * leaves its gauges out of that scrape.
   */
  watch(state: StoreState): void {
    const registers = [this.registry];
    let reading: Promise<void> | undefined;
    const refresh = (): Promise<void> => (reading ??= readAll().finally(() => (reading = undefined)));
    const gauge = (name: string, help: string, labelNames: string[] = []) => new Gauge({ name, help, labelNames, registers, collect: refresh });
    const keysWaiting = gauge('keystore_paid_lines_waiting', 'Lines of paid orders still waiting for their keys.');
    const keysOldest = gauge('keystore_paid_lines_oldest_wait_seconds', 'How long the oldest paid order still without its keys has waited since payment.');
    const outboxDepth = gauge('keystore_mail_outbox_depth', 'Mails in the outbox not sent yet.');
    const outboxOldest = gauge('keystore_mail_outbox_oldest_seconds', 'Age of the oldest mail not sent yet.');
    const ledgerTotal = gauge('keystore_ledger_balance_cents', 'The sum of every ledger account (euro cents): always 0.');
    const payoutsDue = gauge('keystore_payouts_due_cents', 'Payouts made but not transferred yet (euro cents).');
    const lastSync = gauge('keystore_supplier_sync_last_success_timestamp_seconds', 'When the last successful supplier sync of the cluster ended (Unix time).');
    const pool = gauge('keystore_db_pool_connections', 'This instance’s database connections, by state (waiting: queries queued for one).', ['state']);
    const ready = gauge('keystore_ready', '1 when this instance is ready for traffic (its database answers and its catalogue is loaded).');
    const took = gauge('keystore_metrics_read_seconds', 'Time the last scrape took to read the store’s state.');
    const read = async <T>(what: () => Promise<T>, set: (value: T) => void, gauges: Gauge[]) => {
      try {
        set(await what());
      } catch {
        for (const one of gauges) one.reset();
      }
    };
    async function readAll(): Promise<void> {
      const started = performance.now();
      await Promise.all([
        read(state.keysWaiting, (value) => (keysWaiting.set(value.lines), keysOldest.set(value.oldestSeconds)), [keysWaiting, keysOldest]),
        read(state.outbox, (value) => (outboxDepth.set(value.depth), outboxOldest.set(value.oldestSeconds)), [outboxDepth, outboxOldest]),
        read(state.ledger, (value) => (ledgerTotal.set(value.totalCents), payoutsDue.set(value.payoutsDueCents)), [ledgerTotal, payoutsDue]),
        read(state.lastSyncSuccess, (at) => (at ? lastSync.set(at.getTime() / 1000) : lastSync.reset()), [lastSync]),
      ]);
      const connections = state.pool();
      for (const [label, value] of Object.entries({ in_use: connections.inUse, idle: connections.idle, waiting: connections.waiting })) pool.set({ state: label }, value);
      ready.set(state.ready() ? 1 : 0);
      took.set((performance.now() - started) / 1000);
    }
  }

  contentType(): string {
    return this.registry.contentType;
  }

  /** The text Prometheus scrapes: this app's metrics and the process's. */
  async text(): Promise<string> {
    const [own, process] = await Promise.all([this.registry.metrics(), this.process.metrics()]);
    return `${own}\n${process}`;
  }

  /**
   * Times every answer by its route's template (a path no route matched counts as `unmatched`, so
   * a scan of random paths adds no series), and counts the rate limits' refusals. Each route gets
   * its own `onResponse` hook, which knows its template: reading it from the request
   * (`request.routeOptions`) builds an object on every answer. Unmatched paths are timed by one
   * app-wide hook, which does nothing for a matched route.
   */
  register(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      const given = route.onResponse;
      route.onResponse = [...(given === undefined ? [] : Array.isArray(given) ? given : [given]), this.timer(route.url ?? 'unmatched')];
    });
    const unmatched = this.timer('unmatched');
    app.addHook('onResponse', (request, reply, done) => (request.is404 ? unmatched(request, reply, done) : done()));
  }

  /** The `onResponse` hook of one route: each method and status's series kept, its labels hashed once. */
  private timer(route: string): (request: FastifyRequest, reply: FastifyReply, done: () => void) => void {
    const series = new Map<string, { observe(value: number): void }>();
    return (request, reply, done) => {
      const key = `${request.method} ${reply.statusCode}`;
      let child = series.get(key);
      if (!child) series.set(key, (child = this.http.labels({ method: request.method, route, status_code: reply.statusCode })));
      child.observe(reply.elapsedTime / 1000);
      if (reply.statusCode === 429) this.rateLimited.inc({ route });
      done();
    };
  }

  /**
   * `GET /metrics` on the app's own port, for a bearer of `token` only (answers 401 to anyone else).
   * Without a token there is no such route (404): metrics are never public.
   */
  serveOn(app: FastifyInstance, token: string | undefined): void {
    if (!token) return;
    const expected = Buffer.from(`Bearer ${token}`);
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const given = Buffer.from(request.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'A metrics token is required' });
      }
      return reply.header('content-type', this.contentType()).header('cache-control', 'no-store').send(await this.text());
    });
  }

  /** `GET /metrics` on a port of its own (METRICS_PORT), for a private network: no token asked. */
  async listen(port: number, host: string): Promise<Server> {
    const server = createServer((request, response) => {
      if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
        return;
      }
      this.text().then(
        (text) => response.writeHead(200, { 'content-type': this.contentType() }).end(text),
        () => response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"The metrics could not be read"}'),
      );
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
    return server;
  }
}
