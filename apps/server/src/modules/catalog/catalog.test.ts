import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogMessages, FILTER_NAMES, type Game, type GameListAnswer, type QuickSearchHit } from '@keystore/contract';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { loadDemoFeed } from '../supplier/demo.ts';

describe('catalogue API on the demo feed', () => {
  let t: TestApp;
  const feed = loadDemoFeed();

  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.catalog.syncNow();
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ url });
  const list = async (query = ''): Promise<GameListAnswer> => {
    const response = await get(`/api/games${query}`);
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  it('bundles a feed covering every type, platform, genre, region and language', () => {
    expect(feed.products.length).toBeGreaterThanOrEqual(300);
    expect(feed.skipped).toBe(0);
    const seen = (pick: (product: (typeof feed.products)[number]) => string[]) => new Set(feed.products.flatMap(pick));
    expect(seen((p) => [p.type])).toEqual(new Set(['Games', 'DLC', 'Gift Cards']));
    expect(seen((p) => [p.platform]).size).toBe(14);
    expect(seen((p) => p.genres).size).toBe(5);
    expect(seen((p) => [p.region]).size).toBe(4);
    expect(seen((p) => p.languages).size).toBe(5);
    expect(feed.products.some((p) => p.originalPriceCents !== null && p.originalPriceCents > p.priceCents)).toBe(true);
    expect(feed.products.every((p) => (p.description ?? '').length > 100)).toBe(true);
  });

  it('lists the first page of 20, sorted by popularity, with facets for the five filters', async () => {
    const answer = await list();
    expect(answer.total).toBe(feed.products.length);
    expect(answer.items).toHaveLength(20);
    expect(answer.page).toBe(1);
    expect(answer.pageSize).toBe(20);
    expect(Object.keys(answer.facets)).toEqual(FILTER_NAMES);
    const platformCount = answer.facets.platform.reduce((sum, entry) => sum + entry.count, 0);
    expect(platformCount).toBe(answer.total);
    expect(answer.facets.category.find((entry) => entry.value === 'Books')).toEqual({ value: 'Books', count: 0 });
  });

  it('applies the markup to the supplier price, rounded to the cent', async () => {
    const product = feed.products.find((p) => p.title === 'The Witcher 3: Wild Hunt')!;
    const hit = (await list(`?search=${encodeURIComponent('The Witcher 3: Wild Hunt')}&pageSize=100`)).items.find(
      (item) => item.title === product.title && item.platform === product.platform,
    )!;
    expect(hit.price).toBe(Math.round(product.priceCents * 1.05) / 100);
  });

  it('filters by comma lists, accepts platform slugs, and counts each facet with the other filters applied', async () => {
    const answer = await list('?platform=ps5,PS4&genre=RPG&sort=price-asc');
    expect(answer.total).toBeGreaterThan(0);
    expect(answer.items.every((item) => ['PS5', 'PS4'].includes(item.platform) && item.genre.includes('RPG'))).toBe(true);
    const prices = answer.items.map((item) => item.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    // Platform counts ignore the platform selection but respect the genre.
    const rpg = await list('?genre=RPG');
    expect(answer.facets.platform).toEqual(rpg.facets.platform);
    const ps5 = answer.facets.platform.find((entry) => entry.value === 'PS5')!.count;
    const ps4 = answer.facets.platform.find((entry) => entry.value === 'PS4')!.count;
    expect(ps5 + ps4).toBe(answer.total);
  });

  it('applies the region and language filters', async () => {
    const answer = await list('?region=Asia&language=Japanese&pageSize=100');
    expect(answer.total).toBeGreaterThan(0);
    expect(answer.items.every((item) => item.region === 'Asia' && item.languages.includes('Japanese'))).toBe(true);
  });

  it('answers a page past the end with no items and the right total, and caps the page size at 100', async () => {
    const past = await list('?page=999');
    expect(past.items).toEqual([]);
    expect(past.total).toBe(feed.products.length);
    const big = await list('?pageSize=500');
    expect(big.pageSize).toBe(100);
    expect(big.items).toHaveLength(100);
  });

  it('matches nothing for unknown filter values', async () => {
    const answer = await list('?platform=Dreamcast');
    expect(answer.total).toBe(0);
    expect(answer.items).toEqual([]);
  });

  it('refuses an unknown sort, an overlong query and a bad page with a 400 and a message', async () => {
    for (const [url, message] of [
      ['/api/games?sort=cheapest', catalogMessages.unknownSort],
      [`/api/games?search=${'a'.repeat(201)}`, catalogMessages.searchTooLong],
      [`/api/games/search?query=${'a'.repeat(201)}`, catalogMessages.searchTooLong],
      ['/api/games?page=0', catalogMessages.invalidPage],
      ['/api/games?page=abc', catalogMessages.invalidPage],
      ['/api/games/quick-search', catalogMessages.queryRequired],
    ] as const) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ error: message });
    }
  });

  it('sorts by price both ways and by newest', async () => {
    const desc = (await list('?sort=price-desc&pageSize=50')).items.map((item) => item.price);
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    const newest = (await list('?sort=newest&pageSize=5')).items;
    const details = await Promise.all(newest.map(async (item) => (await get(`/api/games/${item._id}`)).json<Game>()));
    const dates = details.map((game) => game.releaseDate!);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('finds The Witcher from "witch" and from the typo "wicher" in the quick search', async () => {
    for (const query of ['witch', 'wicher', 'Witcher 3', 'wild hunt']) {
      const hits = (await get(`/api/games/quick-search?query=${encodeURIComponent(query)}`)).json<QuickSearchHit[]>();
      expect(hits.length, query).toBeGreaterThan(0);
      expect(hits.length).toBeLessThanOrEqual(8);
      expect(hits.some((hit) => hit.title.startsWith('The Witcher 3')), query).toBe(true);
      expect(Object.keys(hits[0]!).sort()).toEqual(['_id', 'platform', 'title']);
    }
    expect((await get('/api/games/quick-search?query=zzzzqqq')).json()).toEqual([]);
  });

  it('searches the catalogue with the typo fallback, and the search call answers up to 50 games', async () => {
    const typo = await list('?search=wicher');
    expect(typo.total).toBeGreaterThan(0);
    expect(typo.items.every((item) => item.title.includes('Witcher'))).toBe(true);
    const results = (await get('/api/games/search?query=the')).json<unknown[]>();
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(50);
  });

  it('answers a game with its description and real stock, and 404 for an unknown id', async () => {
    const [first] = (await list()).items;
    const game = (await get(`/api/games/${first!._id}`)).json<Game>();
    const product = feed.products.find((p) => p.title === game.title && p.platform === game.platform)!;
    expect(game.description).toBe(product.description);
    expect(game.stock).toBe(product.stock);
    const missing = await get('/api/games/doesnotexist');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Game not found' });
  });

  it('answers compressed as the browser asks, the same JSON each way, and a moved stock at once', async () => {
    const url = '/api/games?pageSize=50';
    const plain = await t.app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('accept-encoding');
    const brotli = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(brotli.rawPayload).toString())).toEqual(plain.json());
    expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    const gzip = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
    // A game page is kept too, and still shows stock an order moves on this instance at once.
    const game = plain.json<GameListAnswer>().items.find((item) => item.stock > 2)!;
    expect((await get(`/api/games/${game._id}`)).json<Game>().stock).toBe(game.stock);
    t.app.events.emit('stock-moved', { games: [{ gameId: game._id, stock: game.stock - 2 }] });
    expect((await get(`/api/games/${game._id}`)).json<Game>().stock).toBe(game.stock - 2);
    expect((await list('?pageSize=50')).items.find((item) => item._id === game._id)!.stock).toBe(game.stock - 2);
    t.app.events.emit('stock-moved', { games: [{ gameId: game._id, stock: game.stock }] });
  });

  it('draws a cover for every demo product', async () => {
    const [first] = (await list()).items;
    const cover = await get(first!.image);
    expect(cover.statusCode).toBe(200);
    expect(cover.headers['content-type']).toContain('image/svg+xml');
    expect(cover.body).toContain('<svg');
    expect((await get('/media/covers/unknown.svg')).statusCode).toBe(404);
  });

  it('changes nothing when the same feed is synced again', async () => {
    const before = await list('?pageSize=100&sort=price-asc');
    const outcome = await t.app.catalog.syncNow({ full: true });
    expect(outcome).toMatchObject({ added: 0, updated: 0, deactivated: 0, unchanged: feed.products.length, error: null });
    expect(await list('?pageSize=100&sort=price-asc')).toEqual(before);
  });

  it('serves health, the OpenAPI document, security headers and JSON 404s for unknown API paths', async () => {
    expect((await get('/api/health')).json()).toEqual({ status: 'ok' });
    const docs = await get('/api/docs/json');
    expect(docs.statusCode).toBe(200);
    expect(Object.keys(docs.json().paths)).toEqual(expect.arrayContaining(['/api/games', '/api/games/{id}', '/api/games/quick-search']));
    const response = await get('/api/health');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    const unknown = await get('/api/nothing-here');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'Not found' });
  });
});
