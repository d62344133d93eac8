import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Game, GameListAnswer } from '@keystore/contract';
import { queryRows } from '../../db/client.ts';
import { FakeKinguin, kinguinProduct } from '../../test/fake-kinguin.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { KinguinSupplier } from './kinguin.ts';

describe('Kinguin supplier', () => {
  let kinguin: FakeKinguin;
  let t: TestApp;

  beforeEach(async () => {
    kinguin = await new FakeKinguin().start();
    kinguin.products = Array.from({ length: 250 }, (_, n) => kinguinProduct(n));
    t = await buildTestApp({
      env: { SUPPLIER: 'kinguin', SUPPLIER_API_URL: kinguin.url, SUPPLIER_API_KEY: kinguin.apiKey, SUPPLIER_TIMEOUT_MS: '300', PRICE_MARKUP_PERCENT: '5' },
    });
  });
  afterEach(async () => {
    await t.close();
    await kinguin.stop();
  });

  const list = async (query = ''): Promise<GameListAnswer> => (await t.app.inject({ url: `/api/games?pageSize=100${query}` })).json();
  const runs = () => queryRows<{ error: string | null; added: number; skipped: number }>(t.database.db, sql`select * from sync_runs order by id`);

  it('pages through the whole feed with the API key and maps products onto the store', async () => {
    const outcome = await t.app.catalog.syncNow();
    expect(outcome).toMatchObject({ full: true, added: 250, updated: 0, skipped: 0, error: null });
    const pages = kinguin.requests.filter((request) => request.url.startsWith('/v1/products'));
    expect(pages.map((request) => new URL(request.url, kinguin.url).searchParams.get('page'))).toEqual(['1', '2', '3']);
    expect(pages.every((request) => request.apiKey === kinguin.apiKey && request.url.includes('limit=100'))).toBe(true);

    const answer = await list('&search=Kinguin Test Game 0&sort=price-asc');
    expect(answer.total).toBeGreaterThan(0);
    const first = answer.items.find((item) => item.title === 'Kinguin Test Game 0')!;
    const game = (await t.app.inject({ url: `/api/games/${first._id}` })).json<Game>();
    expect(game).toMatchObject({
      title: 'Kinguin Test Game 0',
      platform: 'Steam',
      genre: ['Action', 'Sports'],
      languages: ['English', 'German'],
      region: 'Global',
      pegi: 16,
      price: 10.49, // 9.99 + 5 %
      stock: 10,
      type: 'Games',
      description: 'Test game number 0 & friends.',
      coverImage: 'https://images.example/cover-0.jpg',
      systemRequirements: { os: 'Windows 10', processor: 'Core i5', memory: '8 GB RAM', graphics: 'GTX 960', storage: '20 GB' },
    });
    expect((await list('&platform=gog')).total).toBe(125);
  });

  it('syncs incrementally afterwards: the same feed changes nothing, a changed product is updated', async () => {
    await t.app.catalog.syncNow();
    kinguin.requests.length = 0;
    const again = await t.app.catalog.syncNow();
    expect(again).toMatchObject({ full: false, added: 0, updated: 0, error: null });
    expect(kinguin.requests[0]!.url).toContain('updatedSince=');

    kinguin.products[3] = kinguinProduct(3, { qty: 0, price: 1.5, updatedAt: new Date().toISOString() });
    const changed = await t.app.catalog.syncNow();
    expect(changed).toMatchObject({ added: 0, updated: 1 });
    const item = (await list('&search=Kinguin Test Game 3&sort=price-asc')).items.find((game) => game.title === 'Kinguin Test Game 3')!;
    expect(item).toMatchObject({ stock: 0, price: 1.58 });
  });

  it('keeps a product that left the feed, listed as out of stock', async () => {
    await t.app.catalog.syncNow();
    kinguin.products = kinguin.products.slice(1);
    const outcome = await t.app.catalog.syncNow({ full: true });
    expect(outcome).toMatchObject({ deactivated: 1, added: 0, updated: 0 });
    const answer = await list('&search=Kinguin Test Game 0');
    const gone = answer.items.find((item) => item.title === 'Kinguin Test Game 0')!;
    expect(gone.stock).toBe(0);
    expect((await list()).total).toBe(250);
  });

  it('records a refused API key, does not retry it, and keeps serving the last good catalogue', async () => {
    await t.app.catalog.syncNow();
    kinguin.requests.length = 0;
    kinguin.faults.push({ status: 401, body: '{"detail":"Invalid API key"}' });
    const outcome = await t.app.catalog.syncNow();
    expect(outcome?.error).toContain('401');
    expect(kinguin.requests).toHaveLength(1);
    expect((await list()).total).toBe(250);
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    expect((await runs()).at(-1)!.error).toContain('401');
  });

  it('retries server errors and then succeeds', async () => {
    kinguin.faults.push({ status: 502 }, { status: 503 });
    const outcome = await t.app.catalog.syncNow();
    expect(outcome).toMatchObject({ added: 250, error: null });
  });

  it('gives up on a supplier that does not answer, and the store stays up', async () => {
    kinguin.faults.push({ hang: true }, { hang: true }, { hang: true });
    const outcome = await t.app.catalog.syncNow();
    expect(outcome?.error).toMatch(/did not answer within 300 ms/);
    expect((await list()).total).toBe(0);
    expect((await t.app.inject({ url: '/api/health' })).json()).toEqual({ status: 'ok' });
    // The failed run does not count as the last good one: the next sync is full again.
    expect(await t.app.catalog.syncNow()).toMatchObject({ full: true, added: 250 });
  });

  it('skips and counts malformed items, and refuses a malformed page', async () => {
    kinguin.products = [
      kinguinProduct(1),
      kinguinProduct(2, { name: undefined }),
      kinguinProduct(3, { price: -4 }),
      kinguinProduct(4, { platform: 'Sega Dreamcast' }),
      kinguinProduct(5, { qty: 'many' }),
      kinguinProduct(6, { regionId: 10 }),
      kinguinProduct(7),
    ];
    expect(await t.app.catalog.syncNow()).toMatchObject({ added: 2, skipped: 5, error: null });
    kinguin.faults.push({ json: { unexpected: true } });
    expect((await t.app.catalog.syncNow())?.error).toMatch(/unexpected shape/);
    expect((await list()).total).toBe(2);
  });

  it('buys keys once per order id and fetches them', async () => {
    const supplier = new KinguinSupplier({ apiUrl: kinguin.url, apiKey: kinguin.apiKey, timeoutMs: 1000 });
    const lines = [{ productId: 'p-1', quantity: 2, priceCents: 1999 }];
    const first = await supplier.placeOrder('order-42', lines);
    const retry = await supplier.placeOrder('order-42', lines);
    expect(retry.orderId).toBe(first.orderId);
    expect(kinguin.orders.size).toBe(1);
    expect(kinguin.requests.find((request) => request.method === 'POST')!.body).toEqual({
      products: [{ productId: 'p-1', qty: 2, price: 19.99 }],
      orderExternalId: 'order-42',
    });
    const keys = await supplier.orderKeys(first.orderId);
    expect(keys).toHaveLength(2);
    expect(new Set(keys.map((key) => key.serial)).size).toBe(2);
    expect(keys.every((key) => key.productId === 'p-1' && !key.demo)).toBe(true);
  });
});
