// Two instances on one PostgreSQL (and Redis when it answers), started as the README's scale-out
// section says: a token, a key and an avatar from one work on the other, a sale on one shows in the
// other's lists within 2 s, and 50 buyers spread over both for the last 10 keys buy exactly 10.
// One difference from the README: no NODE_ENV=production, so that the sign-up codes can be read
// from the dev outbox (shared through the database, so a code mailed by A is read through A and
// used on B).
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages, type GameListAnswer, type Order, type Purchase, type User } from '@keystore/contract';
import { openDatabase, queryRows, type Database } from '../db/client.ts';
import { CATALOG_CHANNEL } from '../modules/catalog/sync.ts';
import { answers } from '../../../../scripts/server-process.ts';
import { multipart } from '../test/multipart.ts';
import { customerOver, customersIn, eventually, purchase, scratchDatabase, SHARED_POSTGRES, startInstance, type Instance } from '../test/cluster-kit.ts';

describe.skipIf(!SHARED_POSTGRES)('two instances on one PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  let database: Database;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    scratch = await scratchDatabase(SHARED_POSTGRES!, 'pair');
    a = await startInstance({ databaseUrl: scratch.url });
    b = await startInstance({ databaseUrl: scratch.url });
    database = await openDatabase({ url: scratch.url });
    await eventually(async () => ((await (await fetch(`${b.base}/api/games?pageSize=1`)).json()) as GameListAnswer).total > 0, 30_000);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.close();
    await scratch?.drop();
  });

  /**
   * Gives a game `stock` keys behind the instances' backs, as a supplier sync does, and tells them as
   * a sync does (the catalogue's notice: each rebuilds its index). Only orders' stock moves are
   * announced on their own (shown-stock.ts).
   */
  const gameWithStock = async (stock: number, offset: number) => {
    const [game] = await queryRows<{ id: string }>(database.db, sql`select id from games where active order by popularity desc, id offset ${offset} limit 1`);
    await database.db.execute(sql`update games set supplier_stock = ${stock}, reserved = 0 where id = ${game!.id}`);
    await database.notify(CATALOG_CHANNEL, 'test');
    return game!.id;
  };

  it('accepts on B the account signed up, verified and signed in on A, and reveals on B a key bought on A', async () => {
    const customer = await customerOver(a.base, b.base);
    const profile = await fetch(`${b.base}/api/users/profile`, { headers: customer.headers });
    expect(profile.status).toBe(200);
    expect(((await profile.json()) as User).email).toBe(customer.email);

    const gameId = await gameWithStock(20, 0);
    const bought = await purchase(a.base, customer.headers, gameId);
    expect(bought).toMatchObject({ placed: 201, paid: 200 });
    const order = (await (await fetch(`${b.base}/api/orders/${bought.orderId}`, { headers: customer.headers })).json()) as Order;
    expect(order).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
    const [owned] = (await (await fetch(`${b.base}/api/purchases`, { headers: customer.headers })).json()) as Purchase[];
    const revealed = await fetch(`${b.base}/api/purchases/${owned!._id}/key`, { headers: customer.headers });
    expect(revealed.status).toBe(200);
    expect(((await revealed.json()) as { key: string }).key).toMatch(/^DEMO-/);
  });

  it('opens on B the stream with a ticket A issued, and takes each ticket once across both (through Redis)', async () => {
    const customer = await customerOver(a.base);
    const ask = await fetch(`${a.base}/api/notifications/stream-ticket`, { method: 'POST', headers: { authorization: customer.headers.authorization! } });
    expect(ask.status).toBe(200);
    const { ticket } = (await ask.json()) as { ticket: string };
    const opened = new AbortController();
    const onB = await fetch(`${b.base}/api/notifications/stream?ticket=${ticket}`, { signal: opened.signal });
    expect(onB.status).toBe(200);
    opened.abort();
    const again = await fetch(`${a.base}/api/notifications/stream?ticket=${ticket}`);
    // Without Redis each instance remembers only the tickets it took (decision 016).
    if (await answers(6379)) expect(again.status).toBe(401);
    await again.body?.cancel();
  });

  it('serves from B an avatar uploaded through A', async () => {
    const customer = await customerOver(a.base);
    const picture = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366cc' } }).png().toBuffer();
    const body = await multipart({ avatar: { data: picture, filename: 'me.png', type: 'image/png' } });
    const uploaded = await fetch(`${a.base}/api/users/profile`, {
      method: 'PUT',
      headers: { authorization: customer.headers.authorization!, 'content-type': body.contentType },
      body: new Uint8Array(body.payload),
    });
    expect(uploaded.status).toBe(200);
    const { avatar } = (await uploaded.json()) as User;
    const onB = await fetch(new URL(avatar!, b.base));
    expect(onB.status).toBe(200);
    expect(onB.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(Buffer.from(await onB.arrayBuffer())).metadata()).format).toBe('webp');
  });

  it('refuses on B, at once, every session of an account blocked through A, and its sign-in', async () => {
    const admin = await customerOver(a.base);
    await database.db.execute(sql`update users set role = 'admin' where email = ${admin.email}`);
    const customer = await customerOver(b.base);
    expect((await fetch(`${b.base}/api/users/profile`, { headers: customer.headers })).status).toBe(200);
    const [row] = await queryRows<{ id: string }>(database.db, sql`select id from users where email = ${customer.email}`);

    const blocked = await fetch(`${a.base}/api/admin/users/${row!.id}`, { method: 'PATCH', headers: admin.headers, body: JSON.stringify({ blocked: true }) });
    expect(blocked.status).toBe(200);
    const onB = await fetch(`${b.base}/api/users/profile`, { headers: customer.headers });
    expect(onB.status).toBe(403);
    expect(await onB.json()).toEqual({ error: adminMessages.accountBlocked });
    const login = await fetch(`${b.base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: customer.email, password: 'Secret123' }) });
    expect(login.status).toBe(403);
  });

  it('takes a game hidden through A out of B\'s store (its index rebuilt on the notice)', async () => {
    const admin = await customerOver(a.base);
    await database.db.execute(sql`update users set role = 'admin' where email = ${admin.email}`);
    // A game no other test here sells.
    const gameId = await gameWithStock(5, 5);
    const listedOn = async (instance: Instance) =>
      ((await (await fetch(`${instance.base}/api/games?pageSize=100&sort=popularity`)).json()) as GameListAnswer).items.some((game) => game._id === gameId);
    expect(await eventually(() => listedOn(b), 5000)).toBe(true);
    expect((await fetch(`${a.base}/api/admin/games/${gameId}`, { method: 'PATCH', headers: admin.headers, body: JSON.stringify({ hidden: true }) })).status).toBe(200);
    const [buyer] = await customersIn(scratch.url, 1);
    expect((await purchase(b.base, buyer!.headers, gameId, 1)).placed).toBe(404);
    // B answers game pages from its index too (decision 025): gone once the notice has rebuilt it,
    // while an order for it is refused by the database at once on any instance.
    expect(await eventually(async () => (await fetch(`${b.base}/api/games/${gameId}`)).status === 404, 10_000)).toBe(true);
    expect(await eventually(async () => !(await listedOn(b)), 10_000)).toBe(true);
  });

  it('shows on B, within 2 s, the stock a sale on A took', async () => {
    const gameId = await gameWithStock(30, 1);
    const stockOn = async (instance: Instance) => {
      const list = (await (await fetch(`${instance.base}/api/games?pageSize=100&sort=popularity`)).json()) as GameListAnswer;
      return list.items.find((game) => game._id === gameId)?.stock;
    };
    expect(await eventually(async () => (await stockOn(b)) === 30, 5000)).toBe(true);
    const [buyer] = await customersIn(scratch.url, 1);
    expect(await purchase(a.base, buyer!.headers, gameId, 3)).toMatchObject({ placed: 201, paid: 200 });
    const soldAt = Date.now();
    expect(await eventually(async () => (await stockOn(b)) === 27, 2000, 50)).toBe(true);
    console.log(`a sale on A showed in B's list after ${Date.now() - soldAt} ms`);
  });

  it('sells exactly 10 keys to 50 buyers racing over both instances', async () => {
    const gameId = await gameWithStock(10, 2);
    const buyers = await customersIn(scratch.url, 50);
    const outcomes = await Promise.all(buyers.map((buyer, n) => purchase(n % 2 === 0 ? a.base : b.base, buyer.headers, gameId)));
    expect(outcomes.filter((outcome) => outcome.paid === 200)).toHaveLength(10);
    expect(outcomes.filter((outcome) => outcome.placed === 409)).toHaveLength(40);
    const [counts] = await queryRows<{ keys: number; distinct: number; stock: number }>(
      database.db,
      sql`select (select count(*)::int from product_keys where game_id = ${gameId}) as keys,
                 (select count(distinct serial_hash)::int from product_keys where game_id = ${gameId}) as distinct,
                 (select stock from games where id = ${gameId}) as stock`,
    );
    expect(counts).toEqual({ keys: 10, distinct: 10, stock: 0 });
  });
});
