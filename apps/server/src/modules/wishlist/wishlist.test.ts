// The wishlist and its alerts (issue 31), through the real app on the embedded database: the list's
// rules, alerts from price and stock changes made by the owner and the sync, the 7-day pause, the
// threshold, unverified accounts, one-click unsubscribe, and a visitor's list joined at sign-in.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WISHLIST_MAX_ITEMS, wishlistMessages, type Notification, type WishlistItem } from '@keystore/contract';
import { games } from '../catalog/schema.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';

describe('the wishlist', () => {
  let t: OrdersTestApp;
  let admin: Buyer;
  let ids: string[];
  beforeAll(async () => {
    t = await ordersTestApp();
    admin = await t.buyer('admin');
    ids = (await t.database.db.select({ id: games.id }).from(games).orderBy(games.supplierProductId)).map((row) => row.id);
  });
  afterAll(() => t.close());

  const wish = (who: Buyer, gameId: string, payload: object = {}) => t.app.inject({ method: 'PUT', url: `/api/wishlist/${gameId}`, headers: who.headers, payload });
  const listOf = async (who: Buyer) => (await t.app.inject({ url: '/api/wishlist', headers: who.headers })).json<WishlistItem[]>();
  const setPrice = async (gameId: string, euro: number | null) =>
    expect((await t.app.inject({ method: 'PATCH', url: `/api/admin/games/${gameId}`, headers: admin.headers, payload: { priceOverride: euro } })).statusCode).toBe(200);
  const bell = async (who: Buyer) => (await t.app.inject({ url: '/api/notifications', headers: who.headers })).json<Notification[]>().filter((n) => n.link?.startsWith('/game/'));
  const alertMails = async (who: Buyer) => (await t.app.mailer.outbox({ to: who.email })).filter((mail) => mail.headers?.['List-Unsubscribe']);

  it('adds (201), changes (200), lists, and removes (204, twice); 404 for an unknown game; 401 without a session', async () => {
    const buyer = await t.buyer();
    const gameId = ids[10]!;
    const price = (await t.app.inject({ url: `/api/games/${gameId}` })).json<{ price: number }>().price;
    expect((await wish(buyer, gameId)).statusCode).toBe(201);
    const changed = await wish(buyer, gameId, { targetPrice: 1.5, backInStock: false });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ gameId, priceAtAdd: price, alerts: { priceDrop: true, targetPrice: 1.5, backInStock: false } });
    expect((await listOf(buyer)).map((item) => [item.gameId, item.game.price])).toEqual([[gameId, price]]);

    expect((await wish(buyer, 'no-such-game')).statusCode).toBe(404);
    expect((await wish(buyer, gameId, { targetPrice: -2 })).json()).toEqual({ error: wishlistMessages.targetPriceInvalid });
    expect((await t.app.inject({ url: '/api/wishlist' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: `/api/wishlist/${gameId}`, payload: {} })).statusCode).toBe(401);
    for (let i = 0; i < 2; i += 1) expect((await t.app.inject({ method: 'DELETE', url: `/api/wishlist/${gameId}`, headers: buyer.headers })).statusCode).toBe(204);
    expect(await listOf(buyer)).toEqual([]);
  });

  it(`holds at most ${WISHLIST_MAX_ITEMS} games: 409 beyond`, async () => {
    const buyer = await t.buyer();
    await t.database.db.execute(
      sql`insert into wishlist_items (user_id, game_id, price_at_add_cents) select ${buyer.userId}, id, 100 from games order by supplier_product_id limit ${WISHLIST_MAX_ITEMS}`,
    );
    const answer = await wish(buyer, ids[WISHLIST_MAX_ITEMS + 5]!);
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toEqual({ error: wishlistMessages.full });
    expect((await wish(buyer, ids[0]!, { backInStock: false })).statusCode).toBe(200);
  });

  it('alerts a price 10 % under the price when wished for, once, and again only after 7 days and at a lower price', async () => {
    const buyer = await t.buyer();
    const gameId = await t.gameWithStock(10, 250);
    await setPrice(gameId, 20);
    expect((await wish(buyer, gameId)).statusCode).toBe(201);
    await t.app.wishlist.sendAlerts();

    await setPrice(gameId, 18.5); // 7.5 % off: not enough
    await t.app.wishlist.sendAlerts();
    expect(await bell(buyer)).toHaveLength(0);

    await setPrice(gameId, 17.99);
    expect(await t.app.wishlist.sendAlerts()).toBe(1);
    expect(await t.app.wishlist.sendAlerts()).toBe(0);
    const [alert] = await bell(buyer);
    expect(alert).toMatchObject({ link: `/game/${gameId}` });
    expect(alert!.text).toContain('€17.99 (was €20.00)');
    const [mail] = await alertMails(buyer);
    expect(mail!.text).toContain('now €17.99 (was €20.00)');
    expect(mail!.headers).toMatchObject({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });

    await setPrice(gameId, 15); // within 7 days: nothing
    await t.app.wishlist.sendAlerts();
    expect(await bell(buyer)).toHaveLength(1);

    await t.database.db.execute(sql`update wishlist_items set last_alert_at = now() - interval '8 days' where user_id = ${buyer.userId}`);
    await setPrice(gameId, 17.99); // past the pause, but not lower than the last alert's €17.99
    await t.app.wishlist.sendAlerts();
    expect(await bell(buyer)).toHaveLength(1);
    await setPrice(gameId, 16);
    expect(await t.app.wishlist.sendAlerts()).toBe(1);
    expect(await bell(buyer)).toHaveLength(2);
  });

  it('alerts at the target price when one is set, and never an unverified account', async () => {
    const buyer = await t.buyer();
    const unverified = await t.buyer();
    await t.database.db.execute(sql`update users set email_verified_at = null where id = ${unverified.userId}`);
    const gameId = await t.gameWithStock(10, 251);
    await setPrice(gameId, 30);
    expect((await wish(buyer, gameId, { targetPrice: 25 })).statusCode).toBe(201);
    expect((await wish(unverified, gameId)).statusCode).toBe(201);
    await t.app.wishlist.sendAlerts();

    await setPrice(gameId, 26); // 13 % off, but above the target
    await t.app.wishlist.sendAlerts();
    expect(await bell(buyer)).toHaveLength(0);
    await setPrice(gameId, 25);
    expect(await t.app.wishlist.sendAlerts()).toBe(1);
    expect(await bell(buyer)).toHaveLength(1);
    expect(await alertMails(unverified)).toHaveLength(0);
  });

  it('alerts a game back in stock, and a one-click unsubscribe stops the mails but not the bell', async () => {
    const buyer = await t.buyer();
    const gameId = await t.gameWithStock(0, 252);
    expect((await wish(buyer, gameId)).statusCode).toBe(201);
    await t.app.wishlist.sendAlerts();
    await t.database.db.update(games).set({ supplierStock: 4 }).where(eq(games.id, gameId));
    expect(await t.app.wishlist.sendAlerts()).toBe(1);
    expect((await bell(buyer))[0]!.title).toMatch(/^Back in stock: /);
    const [mail] = await alertMails(buyer);
    const url = new URL(/^<(.+)>$/.exec(mail!.headers!['List-Unsubscribe']!)![1]!);

    const forged = await t.app.inject({ method: 'POST', url: `${url.pathname}?token=${url.searchParams.get('token')!.slice(0, -2)}xx`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ error: wishlistMessages.unsubscribeInvalid });
    const oneClick = await t.app.inject({ method: 'POST', url: `${url.pathname}${url.search}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(oneClick.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/users/alerts', headers: buyer.headers })).json()).toEqual({ email: false });

    await t.database.db.execute(sql`update wishlist_items set last_alert_at = now() - interval '8 days' where user_id = ${buyer.userId}`);
    await t.database.db.update(games).set({ supplierStock: 0 }).where(eq(games.id, gameId));
    await t.database.db.update(games).set({ supplierStock: 3 }).where(eq(games.id, gameId));
    expect(await t.app.wishlist.sendAlerts()).toBe(1);
    expect(await bell(buyer)).toHaveLength(2);
    expect(await alertMails(buyer)).toHaveLength(1);

    expect((await t.app.inject({ method: 'PUT', url: '/api/users/alerts', headers: buyer.headers, payload: { email: true } })).json()).toEqual({ email: true });
  });

  it("joins a visitor's list at sign-in, each game at its price when wished for", async () => {
    const buyer = await t.buyer();
    const gameId = await t.gameWithStock(10, 253);
    await setPrice(gameId, 40);
    const wishedAt = new Date().toISOString();
    await setPrice(gameId, 35);
    expect((await wish(buyer, ids[254]!)).statusCode).toBe(201);
    const merged = await t.app.inject({
      method: 'POST',
      url: '/api/wishlist/merge',
      headers: buyer.headers,
      payload: { items: [{ gameId, addedAt: wishedAt }, { gameId: ids[254] }, { gameId: 'gonefromthestore' }] },
    });
    expect(merged.statusCode).toBe(200);
    const list = merged.json<WishlistItem[]>();
    expect(list.map((item) => item.gameId).sort()).toEqual([gameId, ids[254]].sort());
    expect(list.find((item) => item.gameId === gameId)).toMatchObject({ priceAtAdd: 40, game: { price: 35 } });
  });
});
