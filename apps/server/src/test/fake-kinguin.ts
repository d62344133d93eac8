import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoopbackFake } from './loopback-server.ts';

/** A product as the Kinguin products API lists it (the fields the store reads, plus some it ignores). */
export function kinguinProduct(n: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kinguinId: 1000 + n,
    productId: `5c9b5f6b2539a4e8f17${String(n).padStart(5, '0')}`,
    name: `Kinguin Test Game ${n}`,
    originalName: `Kinguin Test Game ${n}`,
    description: `Test game number ${n} &amp; friends.`,
    coverImage: `https://images.example/cover-${n}.jpg`,
    genres: ['Action', 'Racing'],
    platform: n % 2 === 0 ? 'Steam' : 'PC GOG',
    qty: 10 + n,
    price: 9.99 + n,
    regionId: 3,
    languages: ['English', 'German', 'Russian'],
    systemRequirements: [
      { system: 'Windows', requirement: ['OS: Windows 10', 'Processor: Core i5', 'Memory: 8 GB RAM', 'Graphics: GTX 960', 'Storage: 20 GB'] },
    ],
    ageRating: 'PEGI 16',
    tags: ['base'],
    releaseDate: '2020-05-01',
    updatedAt: '2026-10-01T10:00:00+00:00',
    ...overrides,
  };
}

type Fault = { status: number; body?: string } | { hang: true } | { json: unknown };

/**
 * A fake of the Kinguin eCommerce API on loopback: products with paging and updatedSince,
 * one product's current price, orders keyed by orderExternalId (refused below the current price),
 * and faults queued per request.
 */
export class FakeKinguin extends LoopbackFake {
  readonly apiKey = 'test-kinguin-key';
  products: Array<Record<string, unknown>> = [];
  readonly faults: Fault[] = [];
  readonly requests: Array<{ method: string; url: string; apiKey: string | undefined; body: unknown; requestId?: string | undefined }> = [];
  readonly orders = new Map<string, { orderId: string; products: Array<{ productId: string; qty: number; price: number }> }>();
  /** How long each order call takes (a supplier under load): keeps deliveries under way long enough to be cut by a crash. */
  orderDelayMs = 0;

  protected async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    const body = raw ? JSON.parse(raw) : undefined;
    const apiKey = request.headers['x-api-key'] as string | undefined;
    this.requests.push({ method: request.method ?? '', url: request.url ?? '', apiKey, body, requestId: request.headers['x-request-id'] as string | undefined });
    const send = (status: number, payload: unknown): void => {
      response.writeHead(status, { 'Content-Type': 'application/json' }).end(typeof payload === 'string' ? payload : JSON.stringify(payload));
    };

    const fault = this.faults.shift();
    if (fault && 'hang' in fault) return; // never answers: the client's timeout must fire
    if (fault && 'status' in fault) return send(fault.status, fault.body ?? { code: fault.status, detail: 'fault' });
    if (fault && 'json' in fault) return send(200, fault.json);
    if (apiKey !== this.apiKey) return send(401, { kind: 'Authorization', status: 401, detail: 'Invalid API key' });

    const url = new URL(request.url ?? '/', this.url);
    if (request.method === 'GET' && url.pathname === '/v1/products') {
      const page = Number(url.searchParams.get('page') ?? 1);
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 25), 100);
      const since = url.searchParams.get('updatedSince');
      const matching = this.products.filter((product) => !since || new Date(String(product.updatedAt)) >= new Date(since));
      return send(200, { results: matching.slice((page - 1) * limit, page * limit), item_count: matching.length });
    }
    if (this.orderDelayMs > 0 && url.pathname.startsWith('/v2/order')) await new Promise((resolve) => setTimeout(resolve, this.orderDelayMs));
    if (request.method === 'POST' && url.pathname === '/v2/order') {
      const externalId = String(body.orderExternalId);
      // Kinguin refuses a second order with the same orderExternalId; the store must not buy twice.
      const existing = this.orders.get(externalId);
      if (existing) return send(409, { code: 'ORDER_DUPLICATE', detail: `Order with orderExternalId ${externalId} exists`, orderId: existing.orderId });
      // Kinguin refuses an order below its current price, as the real one does.
      for (const line of body.products as Array<{ productId: string; price: number }>) {
        const product = this.products.find((candidate) => candidate.productId === line.productId);
        if (product && line.price < Number(product.price)) {
          return send(400, { kind: 'ProductUnavailable', status: 400, detail: 'requested price lower than the current price' });
        }
      }
      const order = { orderId: `KG${this.orders.size + 1}`, products: body.products };
      this.orders.set(externalId, order);
      return send(200, { orderId: order.orderId, status: 'processing' });
    }
    if (request.method === 'GET' && url.pathname === '/v2/order') {
      const order = this.orders.get(url.searchParams.get('orderExternalId') ?? '');
      return send(200, { results: order ? [{ orderId: order.orderId, status: 'completed' }] : [], item_count: order ? 1 : 0 });
    }
    const product = /^\/v2\/products\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'GET' && product) {
      const found = this.products.find((candidate) => candidate.productId === decodeURIComponent(product[1]!));
      return found ? send(200, found) : send(404, { kind: 'NotFound', status: 404, detail: 'Product not found' });
    }
    const keys = /^\/v2\/order\/([^/]+)\/keys$/.exec(url.pathname);
    if (request.method === 'GET' && keys) {
      const order = [...this.orders.values()].find((candidate) => candidate.orderId === keys[1]);
      if (!order) return send(404, { detail: 'Order not found' });
      return send(
        200,
        order.products.flatMap((line) =>
          Array.from({ length: line.qty }, (_, index) => ({ serial: `KEY-${order.orderId}-${line.productId}-${index}`, type: 'text/plain', name: 'Game', productId: line.productId })),
        ),
      );
    }
    send(404, { detail: 'Not found' });
  }
}
