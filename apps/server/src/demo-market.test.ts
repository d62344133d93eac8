// The demo marketplace of `npm start` (demo-market.ts) as a newcomer finds it: two demo sellers with keys on
// games of the demo feed, one of them a game's best offer ("Sold by") and another dearer than the house,
// sign-ins that work, a sale in the seller's panel after one purchase, and nothing more on a second start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminSeller, GameListAnswer, GameOffer, Purchase, SellerSale, Session, User } from '@keystore/contract';
import { passwordProblem } from '@keystore/contract/rules';
import { openDemoMarket, type DemoSignIn } from './demo-market.ts';
import { ordersTestApp, type OrdersTestApp } from './modules/orders/test-kit.ts';
import { commonPasswordProblem } from './platform/common-passwords.ts';
import { codeIn } from './test/smtp-sink.ts';

const DEMO_SELLERS = ['Pixel Vault (demo)', 'Key Harbor (demo)'];

describe('the demo marketplace', () => {
  let t: OrdersTestApp;
  let signIns: DemoSignIn[];
  let admin: { authorization: string };
  const open = (config: Partial<OrdersTestApp['config']> = {}) =>
    openDemoMarket({ users: t.app.users, sellers: t.app.sellers, offers: t.app.offers, catalog: t.app.catalog, database: t.database, config: { ...t.config, ...config }, log: t.app.log });
  const get = async <T>(url: string, headers: Record<string, string> = {}): Promise<T> => {
    const answer = await t.app.inject({ url, headers });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<T>();
  };
  const seller = (name: string) => signIns.find((account) => account.name === name)!;

  /** Signs in as a newcomer does: the printed e-mail and password, then the new-device code from the dev outbox. */
  const signIn = async (account: DemoSignIn) => {
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: account.email, password: account.password } });
    expect(login.json()).toMatchObject({ twoFactorRequired: true });
    const [mail] = await t.mailsTo(account.email);
    const code = codeIn({ to: [account.email], ...mail! });
    const verified = await t.app.inject({ method: 'POST', url: '/api/auth/verify-new-device', payload: { email: account.email, code } });
    expect(verified.statusCode, verified.body).toBe(200);
    return { authorization: `Bearer ${verified.json<Session>().token}` };
  };

  /** Every game of the catalogue's first 100 by popularity, with its listed price and its offers, best first. */
  const shelf = async () => {
    const { items } = await get<GameListAnswer>('/api/games?pageSize=100');
    return Promise.all(items.map(async (game) => ({ ...game, offers: await get<GameOffer[]>(`/api/games/${game._id}/offers`) })));
  };
  /** What a second start could add to: the sellers with their offers and keys, the catalogue's prices and stock, the accounts. */
  const whatIsThere = async () => ({
    sellers: (await get<{ items: AdminSeller[] }>('/api/admin/sellers', admin)).items.map(({ name, status, offers, keysInStock }) => ({ name, status, offers, keysInStock })),
    games: (await get<GameListAnswer>('/api/games?pageSize=100')).items.map(({ _id, price, stock }) => ({ _id, price, stock })),
    accounts: (await get<{ total: number }>('/api/admin/users', admin)).total,
  });

  beforeAll(async () => {
    t = await ordersTestApp();
    signIns = await open();
    admin = await signIn(signIns.find((account) => account.role === 'admin')!);
  });
  afterAll(() => t.close());

  it('prints a demo admin and two demo sellers, whose passwords pass the sign-up rules and sign them in', async () => {
    expect(signIns.map(({ role, name }) => [role, name])).toEqual([['admin', 'Admin'], ...DEMO_SELLERS.map((name) => ['seller', name])]);
    for (const { password } of signIns) {
      expect(password && (passwordProblem(password) ?? commonPasswordProblem(password))).toBeUndefined();
    }
    expect(new Set(signIns.map((account) => account.password)).size).toBe(3);
    expect((await get<User>('/api/users/profile', admin)).role).toBe('admin');
  });

  it('shows both demo sellers active, one the best offer of a game ("Sold by"), one dearer than the house', async () => {
    const active = (await get<{ items: AdminSeller[] }>('/api/admin/sellers?status=active', admin)).items.filter((row) => DEMO_SELLERS.includes(row.name));
    expect(active).toHaveLength(2);
    for (const row of active) expect(row).toMatchObject({ status: 'active', holdDays: 0, offers: expect.any(Number), keysInStock: expect.any(Number) });
    expect(active.every((row) => row.offers >= 12 && row.keysInStock > row.offers)).toBe(true);

    const games = await shelf();
    const soldByDemo = games.filter((game) => DEMO_SELLERS.includes(game.offers[0]?.seller.name ?? ''));
    expect(soldByDemo.length).toBeGreaterThan(5);
    // The list shows the best offer's price: the demo seller's, below the house's.
    for (const game of soldByDemo) {
      expect(game.price).toBe(game.offers[0]!.price);
      expect(game.offers.find((offer) => offer.seller.name === 'Keystore')?.price).toBeGreaterThan(game.price);
    }
    const dearer = games.filter((game) => game.offers[0]?.seller.name === 'Keystore' && game.offers.some((offer) => DEMO_SELLERS.includes(offer.seller.name)));
    expect(dearer.length).toBeGreaterThan(0);
    // Where both demo sellers offer a game, its page lists three offers.
    expect(games.some((game) => game.offers.length === 3)).toBe(true);
  });

  it('adds nothing on a second start and prints the same sign-ins', async () => {
    const before = await whatIsThere();
    expect(await open()).toEqual(signIns);
    expect(await whatIsThere()).toEqual(before);
  });

  it("shows a purchase of a demo seller's offer in that seller's sales, available at once", async () => {
    const game = (await shelf()).find((candidate) => candidate.offers[0]?.seller.name === DEMO_SELLERS[0])!;
    const buyer = await t.buyer();
    const { order } = await t.order(buyer, game._id);
    expect(order.lines.map((line) => line.seller)).toEqual([DEMO_SELLERS[0]]);
    expect((await t.pay(buyer, order._id)).statusCode).toBe(200);
    expect(await t.getOrder(buyer, order._id)).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
    const [purchase] = await get<Purchase[]>('/api/purchases', buyer.headers);
    expect((await get<{ key: string }>(`/api/purchases/${purchase!._id}/key`, buyer.headers)).key).toMatch(/^DEMO-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}$/);

    const vault = await signIn(seller(DEMO_SELLERS[0]!));
    const sales = () => get<{ items: SellerSale[] }>('/api/seller/sales', vault);
    expect((await sales()).items).toEqual([expect.objectContaining({ orderId: order._id, gameId: game._id, quantity: 1, price: game.price })]);
    // Hold days 0: the next release (every minute) makes the sale available.
    await t.app.ledger.releaseDue();
    expect((await sales()).items[0]!.state).toBe('available');
  });

  it('prints no demo admin when ADMIN_EMAIL is set, and never a password the account does not have', async () => {
    const withOwnAdmin = await open({ admin: { email: 'owner@example.org', password: 'Owner-pass1' } });
    expect(withOwnAdmin).toEqual(signIns.filter((account) => account.role === 'seller'));
    // As on PostgreSQL: passwords derived from JWT_SECRET, not the ones these accounts were made with.
    const derived = await open({ databaseUrl: 'postgres://elsewhere/keystore' });
    expect(derived.map((account) => account.password)).toEqual([undefined, undefined, undefined]);
  });
});
