// The back office's catalogue: a hidden game is gone from every public surface, a featured one leads
// the home carousel, the owner's choices and price survive every sync, and the markup applies from the
// next sync.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages, type AdminGame, type AdminGameList, type AuditList, type Game, type GameListAnswer, type SyncRun } from '@keystore/contract';
import { games, syncRuns } from '../catalog/schema.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';

describe('back office: catalogue', () => {
  let t: OrdersTestApp;
  let admin: Buyer;
  let buyer: Buyer;

  beforeAll(async () => {
    t = await ordersTestApp();
    admin = await t.buyer('admin');
    buyer = await t.buyer();
  });
  afterAll(() => t.close());

  const patchGame = (id: string, payload: object) => t.app.inject({ method: 'PATCH', url: `/api/admin/games/${id}`, headers: admin.headers, payload });
  const publicGet = (url: string) => t.app.inject({ url });
  /** A sync that rewrites every row, as if the supplier had changed each product. */
  const syncEverything = async () => {
    await t.database.db.execute(sql`update games set feed_hash = ''`);
    await t.app.catalog.syncNow({ full: true });
  };

  it('hides a game from the store: 404, and absent from lists, counts, search, quick search, sitemap and orders', async () => {
    const id = await t.gameWithStock(10, 3);
    const { title } = (await publicGet(`/api/games/${id}`)).json<Game>();
    const before = (await publicGet('/api/games?pageSize=1')).json<GameListAnswer>().total;

    const hidden = await patchGame(id, { hidden: true });
    expect(hidden.statusCode).toBe(200);
    expect(hidden.json<AdminGame>()).toMatchObject({ _id: id, hidden: true });

    expect((await publicGet(`/api/games/${id}`)).statusCode).toBe(404);
    expect((await publicGet('/api/games?pageSize=1')).json<GameListAnswer>().total).toBe(before - 1);
    expect((await publicGet(`/api/games/search?query=${encodeURIComponent(title)}`)).json<Game[]>().map((game) => game._id)).not.toContain(id);
    expect(JSON.stringify((await publicGet(`/api/games/quick-search?query=${encodeURIComponent(title.slice(0, 6))}`)).json())).not.toContain(id);
    expect((await publicGet('/sitemap.xml')).body).not.toContain(id);
    expect((await t.placeOrder(buyer, [{ gameId: id, quantity: 1 }])).statusCode).toBe(404);
    // The back office still finds it.
    expect((await t.app.inject({ url: `/api/admin/games?q=${encodeURIComponent(title)}`, headers: admin.headers })).json<AdminGameList>().items.map((game) => game._id)).toContain(id);

    // Every sync keeps it hidden.
    await syncEverything();
    expect((await publicGet(`/api/games/${id}`)).statusCode).toBe(404);

    await patchGame(id, { hidden: false });
    expect((await publicGet(`/api/games/${id}`)).statusCode).toBe(200);
    expect((await publicGet('/api/games?pageSize=1')).json<GameListAnswer>().total).toBe(before);
  });

  it('puts featured games first in the home carousel (the popularity order)', async () => {
    const [last] = await t.database.db.select({ id: games.id }).from(games).orderBy(games.popularity, games.id).limit(1);
    expect((await patchGame(last!.id, { featured: true })).statusCode).toBe(200);
    const carousel = (await publicGet('/api/games?sort=popularity&pageSize=5')).json<GameListAnswer>();
    expect(carousel.items[0]!._id).toBe(last!.id);
    await patchGame(last!.id, { featured: false });
    expect((await publicGet('/api/games?sort=popularity&pageSize=5')).json<GameListAnswer>().items[0]!._id).not.toBe(last!.id);
  });

  it('overrides a price: charged at once, kept by every sync, and removed again', async () => {
    const id = await t.gameWithStock(10, 4);
    const answer = await patchGame(id, { priceOverride: 1.23 });
    expect(answer.json<AdminGame>()).toMatchObject({ price: 1.23, priceOverride: 1.23 });
    await syncEverything();
    expect((await publicGet(`/api/games/${id}`)).json<Game>().price).toBe(1.23);
    expect((await t.order(buyer, id)).order.amount).toBe(1.23);

    const removed = (await patchGame(id, { priceOverride: null })).json<AdminGame>();
    expect(removed.priceOverride).toBeNull();
    expect(removed.price).toBeGreaterThan(removed.supplierPrice);
    expect((await patchGame(id, { priceOverride: 0 })).statusCode).toBe(400);
    expect((await patchGame('no-such-game', { hidden: true })).statusCode).toBe(404);

    const audit = (await t.app.inject({ url: '/api/admin/audit', headers: admin.headers })).json<AuditList>().items.filter((entry) => entry.target.id === id);
    expect(audit.map((entry) => [entry.action, (entry.before as AdminGame).priceOverride, (entry.after as AdminGame).priceOverride])).toEqual([
      ['game.update', 1.23, null],
      ['game.update', null, 1.23],
    ]);
  });

  it('sets the markup (0–30 %), applied from the next sync', async () => {
    const settings = () => t.app.inject({ url: '/api/admin/settings', headers: admin.headers }).then((answer) => answer.json<{ markupPercent: number }>());
    expect(await settings()).toEqual({ markupPercent: 5, sellerCommissionPercent: 10, sellerCommissionFixed: 0, sellerScoreFloor: 80, guestMaxOrder: 150, guestMaxCopies: 2, guestOrdersPerDay: 3, secondFactorForAdmins: false, secondFactorForSellers: false });
    const tooMuch = await t.app.inject({ method: 'PATCH', url: '/api/admin/settings', headers: admin.headers, payload: { markupPercent: 31 } });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json()).toEqual({ error: adminMessages.markupRange });
    expect((await t.app.inject({ method: 'PATCH', url: '/api/admin/settings', headers: admin.headers, payload: { markupPercent: 20 } })).statusCode).toBe(200);
    // The owner may require a second factor of admins and sellers (issue 30); a non-boolean is refused at the schema.
    expect((await t.app.inject({ method: 'PATCH', url: '/api/admin/settings', headers: admin.headers, payload: { secondFactorForSellers: 'yes' } })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'PATCH', url: '/api/admin/settings', headers: admin.headers, payload: { secondFactorForSellers: true } })).json()).toMatchObject({ secondFactorForAdmins: false, secondFactorForSellers: true });
    expect((await t.app.inject({ method: 'PATCH', url: '/api/admin/settings', headers: admin.headers, payload: { secondFactorForSellers: false } })).statusCode).toBe(200);
    expect(await settings()).toEqual({ markupPercent: 20, sellerCommissionPercent: 10, sellerCommissionFixed: 0, sellerScoreFloor: 80, guestMaxOrder: 150, guestMaxCopies: 2, guestOrdersPerDay: 3, secondFactorForAdmins: false, secondFactorForSellers: false });

    const id = await t.gameWithStock(10, 6);
    const [row] = await t.database.db.select({ supplierPriceCents: games.supplierPriceCents }).from(games).where(eq(games.id, id));
    await syncEverything();
    expect((await publicGet(`/api/games/${id}`)).json<Game>().price).toBe(Math.round(row!.supplierPriceCents * 1.2) / 100);
  });

  it('starts a sync now, one per cluster, and lists the runs', async () => {
    const start = () => t.app.inject({ method: 'POST', url: '/api/admin/sync', headers: admin.headers });
    // Another instance's sync under way (its run is recorded, not finished): refused.
    const [other] = await t.database.db.insert(syncRuns).values({ supplier: 'demo', full: false, startedAt: new Date() }).returning({ id: syncRuns.id });
    const refused = await start();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: adminMessages.syncRunning });
    await t.database.db.update(syncRuns).set({ finishedAt: new Date() }).where(eq(syncRuns.id, other!.id));

    const started = await start();
    expect(started.statusCode).toBe(202);
    expect(started.json()).toEqual({ message: adminMessages.syncStarted });
    await t.app.catalog.syncNow();
    const runs = (await t.app.inject({ url: '/api/admin/sync-runs', headers: admin.headers })).json<SyncRun[]>();
    expect(runs[0]).toMatchObject({ supplier: 'demo', outcome: 'succeeded', error: null });
    expect(runs[0]!.finishedAt).not.toBeNull();
  });
});
