// Guests and gifts over two instances on one PostgreSQL (issue 29): a guest's link signed by one
// instance opens its order on the other; the guest limit per e-mail holds when the same e-mail orders
// on both at once; one Idempotency-Key sent to both places one order; a gift's recipient gets one mail
// and its key joins the account that proves the e-mail, whichever instance does the work.
import { usernameWith } from '../test/accounts.ts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderMessages, type CreateOrderAnswer, type GameListAnswer, type Order, type Purchase } from '@keystore/contract';
import { openDatabase, queryRows, type Database } from '../db/client.ts';
import { CATALOG_CHANNEL } from '../modules/catalog/sync.ts';
import { customerOver, eventually, politely, scratchDatabase, SHARED_POSTGRES, startInstance, type Instance } from '../test/cluster-kit.ts';

const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123', name: 'Guest Player' };
const json = { 'content-type': 'application/json' };

describe.skipIf(!SHARED_POSTGRES)('guests and gifts over two instances on one PostgreSQL', () => {
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  let database: Database;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    scratch = await scratchDatabase(SHARED_POSTGRES!, 'guests');
    a = await startInstance({ databaseUrl: scratch.url, env: { RATE_LIMIT_SCALE: '100' } });
    b = await startInstance({ databaseUrl: scratch.url, env: { RATE_LIMIT_SCALE: '100' } });
    database = await openDatabase({ url: scratch.url });
    await eventually(async () => ((await (await fetch(`${b.base}/api/games?pageSize=1`)).json()) as GameListAnswer).total > 0, 30_000);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.close();
    await scratch?.drop();
  });

  const gameWithStock = async (stock: number, offset: number) => {
    const [game] = await queryRows<{ id: string }>(database.db, sql`select id from games where active and price_cents < 5000 order by popularity desc, id offset ${offset} limit 1`);
    await database.db.execute(sql`update games set supplier_stock = ${stock}, reserved = 0 where id = ${game!.id}`);
    await database.notify(CATALOG_CHANNEL, 'test');
    await eventually(async () => ((await (await fetch(`${b.base}/api/games/${game!.id}`)).json()) as { stock: number }).stock === stock, 10_000);
    return game!.id;
  };
  const place = (base: string, body: unknown, headers: Record<string, string> = {}) =>
    politely(`${base}/api/orders`, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(body) });

  it("holds a guest's limit of 3 orders a day when one e-mail orders 8 times at once on both, and pays and reveals across them", async () => {
    const gameId = await gameWithStock(50, 0);
    const email = `racer.${Math.random().toString(36).slice(2, 8)}@gmail.com`;
    const answers = await Promise.all(Array.from({ length: 8 }, (_, n) => place(n % 2 === 0 ? a.base : b.base, { items: [{ gameId, quantity: 1 }], email })));
    const bodies = await Promise.all(answers.map(async (answer) => ({ status: answer.status, body: (await answer.json()) as CreateOrderAnswer & { error?: string } })));
    const placed = bodies.filter((answer) => answer.status === 201);
    expect(placed).toHaveLength(3);
    for (const refused of bodies.filter((answer) => answer.status !== 201)) expect(refused).toEqual({ status: 409, body: { error: orderMessages.guestTooManyOrders(3) } });

    // Each signed on one instance, paid and read on the other; every key once.
    for (const [n, { body }] of placed.entries()) {
      const other = n % 2 === 0 ? b.base : a.base;
      const paid = await fetch(`${other}/api/payments/test/${body.order._id}?token=${body.token}`, { method: 'POST', headers: json, body: JSON.stringify(CARD) });
      expect(paid.status).toBe(200);
    }
    for (const { body } of placed) {
      const order = await eventually(async () => (await (await fetch(`${a.base}/api/orders/${body.order._id}?token=${body.token}`)).json()) as Order, 10_000);
      expect(order.status).toBe('Paid');
      const keys = await fetch(`${b.base}/api/orders/${body.order._id}/keys?token=${body.token}`);
      expect(keys.status).toBe(200);
    }
    const [keys] = await queryRows<{ n: number; serials: number }>(database.db, sql`select count(*)::int as n, count(distinct serial_hash)::int as serials from product_keys where order_id in (select id from orders where email = ${email})`);
    expect(keys).toEqual({ n: 3, serials: 3 });
  });

  it('places one order for one Idempotency-Key sent to both instances at once', async () => {
    const gameId = await gameWithStock(20, 1);
    const email = `twice.${Math.random().toString(36).slice(2, 8)}@gmail.com`;
    const key = { 'idempotency-key': `attempt-${Math.random().toString(36).slice(2)}` };
    const [first, second] = await Promise.all([a, b].map((instance) => place(instance.base, { items: [{ gameId, quantity: 1 }], email }, key)));
    const orders = [(await first!.json()) as CreateOrderAnswer, (await second!.json()) as CreateOrderAnswer];
    expect([first!.status, second!.status]).toEqual([201, 201]);
    expect(orders[0]!.order._id).toBe(orders[1]!.order._id);
    const [count] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from orders where email = ${email}`);
    expect(count!.n).toBe(1);
  });

  it("mails a gift's recipient once and gives the key to the account that proves the e-mail on the other instance", async () => {
    const gameId = await gameWithStock(20, 2);
    const giver = await customerOver(a.base, b.base);
    const to = `giftee.${Math.random().toString(36).slice(2, 8)}@gmail.com`;
    const placed = (await (await place(a.base, { items: [{ gameId, quantity: 1 }], gift: { email: to, name: 'Giftee', message: 'Enjoy' } }, giver.headers)).json()) as CreateOrderAnswer;
    expect((await fetch(`${b.base}/api/payments/test/${placed.order._id}`, { method: 'POST', headers: giver.headers, body: JSON.stringify(CARD) })).status).toBe(200);
    const mails = await eventually(async () => {
      const all = (await (await fetch(`${a.base}/dev/mail/messages?to=${encodeURIComponent(to)}`)).json()) as Array<{ subject: string; text: string }>;
      return all.filter((mail) => mail.text.includes('/gifts/')).length > 0 ? all : undefined;
    }, 10_000);
    expect(mails!.filter((mail) => mail.text.includes('/gifts/'))).toHaveLength(1);
    // The recipient makes an account for the gift's e-mail after the delivery.
    const owner = await signedUpAs(to);
    const library = (await (await fetch(`${a.base}/api/purchases`, { headers: owner })).json()) as Purchase[];
    expect(library.map((purchase) => purchase.orderId)).toEqual([placed.order._id]);
    const sent = (await (await fetch(`${b.base}/api/purchases`, { headers: giver.headers })).json()) as Purchase[];
    expect(sent.find((purchase) => purchase.orderId === placed.order._id)!.gift).toMatchObject({ to: `Giftee <${to}>` });
  });

  /** Signs `email` up on A, verifies it on B and signs in on B: answers the session's headers. */
  async function signedUpAs(email: string): Promise<Record<string, string>> {
    const password = 'Secret123';
    const username = usernameWith('Giftee_');
    expect((await fetch(`${a.base}/api/auth/register`, { method: 'POST', headers: json, body: JSON.stringify({ username, email, password }) })).status).toBe(201);
    const mails = (await (await fetch(`${a.base}/dev/mail/messages?to=${encodeURIComponent(email)}`)).json()) as Array<{ text: string; subject: string }>;
    const code = /^ {4}(\d{6})$/m.exec(mails.find((mail) => /verification code/i.test(mail.subject))!.text)![1]!;
    expect((await fetch(`${b.base}/api/auth/verify-email`, { method: 'POST', headers: json, body: JSON.stringify({ email, code }) })).status).toBe(200);
    const login = (await (await fetch(`${b.base}/api/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ email, password }) })).json()) as { token: string };
    return { authorization: `Bearer ${login.token}` };
  }
});
