// Traces and metrics of real server processes (issue 32). A store started with
// OTEL_EXPORTER_OTLP_ENDPOINT sends its spans to an OTLP receiver (a small one on loopback, reading
// OTLP/HTTP's JSON): one purchase is one trace holding the request, its SQL and its call to the
// supplier. Two instances on one database each answer /metrics for themselves on METRICS_PORT.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameListAnswer } from '@keystore/contract';
import { freePort, serverNodeFlags } from '../../../../scripts/server-process.ts';
import { FakeKinguin, kinguinProduct } from '../test/fake-kinguin.ts';
import { customersIn, eventually, purchase, scratchDatabase, SHARED_POSTGRES, startInstance, type Instance } from '../test/cluster-kit.ts';

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: { stringValue?: string; intValue?: string | number } }>;
}

/** An OTLP/HTTP receiver for traces in JSON, as a collector would be. */
class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    const port = await freePort();
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        if (request.url === '/v1/traces' && request.headers['content-type']?.includes('json')) {
          const sent = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: ReceivedSpan[] }> }> };
          for (const resource of sent.resourceSpans) for (const scope of resource.scopeSpans) this.spans.push(...scope.spans);
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${port}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const attribute = (span: ReceivedSpan, key: string) => {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : String(value.intValue));
};

describe('OpenTelemetry loads only when asked for', () => {
  it('adds no --import without OTEL_EXPORTER_OTLP_ENDPOINT, and no module of the app imports it', () => {
    expect(serverNodeFlags({})).not.toContain('--import');
    expect(serverNodeFlags({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toContain('--import');
    const sources = path.join(import.meta.dirname, '..');
    const importers = (readdirSync(sources, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && file !== 'telemetry.ts')
      .filter((file) => /from '@(opentelemetry|fastify\/otel)/.test(readFileSync(path.join(sources, file), 'utf8')));
    expect(importers).toEqual([]);
  });
});

describe.skipIf(!SHARED_POSTGRES)('traces and metrics of real servers (PostgreSQL)', () => {
  const kinguin = new FakeKinguin();
  const receiver = new OtlpReceiver();
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  let traced: Instance;
  let other: Instance;
  const metricsPorts: number[] = [];

  beforeAll(async () => {
    await Promise.all([kinguin.start(), receiver.start()]);
    kinguin.products = Array.from({ length: 3 }, (_, n) => kinguinProduct(n, { qty: 100 }));
    scratch = await scratchDatabase(SHARED_POSTGRES!, 'traces');
    const supplier = { SUPPLIER: 'kinguin', SUPPLIER_API_URL: kinguin.url, SUPPLIER_API_KEY: kinguin.apiKey };
    metricsPorts.push(await freePort(), await freePort());
    traced = await startInstance({
      databaseUrl: scratch.url,
      env: { ...supplier, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_SERVICE_NAME: 'keystore-test', METRICS_PORT: String(metricsPorts[0]) },
    });
    other = await startInstance({ databaseUrl: scratch.url, env: { ...supplier, METRICS_PORT: String(metricsPorts[1]) } });
  }, 120_000);
  afterAll(async () => {
    await Promise.all([traced?.stop(), other?.stop()]);
    await scratch?.drop();
    await Promise.all([kinguin.stop(), receiver.stop()]);
  });

  it('sends one purchase as one trace: the request, its SQL and the supplier call', async () => {
    const games = (await (await fetch(`${traced.base}/api/games?pageSize=1`)).json()) as GameListAnswer;
    const [buyer] = await customersIn(scratch.url, 1);
    const bought = await purchase(traced.base, buyer!.headers, games.items[0]!._id);
    expect(bought).toMatchObject({ placed: 201, paid: 200 });

    const payment = await eventually(async () => {
      const span = receiver.spans.find((candidate) => candidate.name === 'request' && attribute(candidate, 'http.route') === '/api/payments/test/:id');
      return span && receiver.spans.some((candidate) => candidate.traceId === span.traceId && attribute(candidate, 'url.full')?.startsWith(kinguin.url)) ? span : undefined;
    }, 20_000, 200);
    expect(payment, 'the payment request’s span, in a trace with the supplier call').toBeDefined();
    const trace = receiver.spans.filter((span) => span.traceId === payment!.traceId);
    // The statements of the payment (the order's move, the keys stored) and the supplier's order.
    expect(trace.filter((span) => attribute(span, 'db.system') === 'postgresql' || attribute(span, 'db.system.name') === 'postgresql').length).toBeGreaterThan(0);
    const supplierCall = trace.find((span) => attribute(span, 'url.full') === `${kinguin.url}/v2/order` && attribute(span, 'http.request.method') === 'POST');
    expect(supplierCall, JSON.stringify(trace.map((span) => [span.name, attribute(span, 'url.full')]))).toBeDefined();
    // The request id travels too: the supplier was asked with the payment's x-request-id.
    expect(kinguin.requests.find((request) => request.method === 'POST')?.requestId).toMatch(/^[0-9a-f-]{36}$/);
  }, 60_000);

  it('answers /metrics on each instance’s own port, for itself', async () => {
    const scrape = async (port: number) => {
      const answer = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(answer.status).toBe(200);
      return answer.text();
    };
    const [first, second] = await Promise.all(metricsPorts.map(scrape));
    // The purchase went through the first instance only.
    expect(first).toMatch(/^keystore_orders_total\{event="paid"\} 1$/m);
    expect(second).toMatch(/^keystore_orders_total\{event="paid"\} 0$/m);
    for (const text of [first, second]) {
      expect(text).toMatch(/^keystore_ledger_balance_cents 0$/m);
      expect(text).toMatch(/^keystore_ready 1$/m);
    }
    // Not on the store's own port: no METRICS_TOKEN there.
    expect((await fetch(`${other.base}/metrics`)).status).toBe(404);
  });
});
