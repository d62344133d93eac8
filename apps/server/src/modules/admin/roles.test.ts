// Every back-office route is for admins only: anonymous 401, a customer 403, before anything is read or done.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages } from '@keystore/contract';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';

const ROUTES = [
  ['GET', '/api/admin/audit'],
  ['GET', '/api/admin/stats'],
  ['GET', '/api/admin/orders'],
  ['GET', '/api/admin/orders.csv'],
  ['GET', '/api/admin/orders/some-order'],
  ['POST', '/api/admin/orders/some-order/refund'],
  ['POST', '/api/admin/orders/some-order/resend'],
  ['POST', '/api/admin/orders/some-order/retry-delivery'],
  ['GET', '/api/admin/users'],
  ['GET', '/api/admin/users/some-user'],
  ['PATCH', '/api/admin/users/some-user'],
  ['POST', '/api/admin/notifications'],
  ['GET', '/api/admin/sync-runs'],
  ['POST', '/api/admin/sync'],
  ['GET', '/api/admin/games'],
  ['PATCH', '/api/admin/games/some-game'],
  ['GET', '/api/admin/settings'],
  ['PATCH', '/api/admin/settings'],
  ['GET', '/api/admin/support'],
  ['POST', '/api/admin/support/some-message/reply'],
  ['GET', '/api/admin/sellers'],
  ['PATCH', '/api/admin/sellers/some-seller'],
  ['GET', '/api/admin/payouts'],
  ['POST', '/api/admin/payouts/run'],
  ['POST', '/api/admin/payouts/some-payout/paid'],
  ['GET', '/api/admin/ledger/balance'],
  ['GET', '/api/admin/claims'],
  ['POST', '/api/admin/claims/some-claim/decide'],
  ['GET', '/api/admin/risk/rules'],
  ['PUT', '/api/admin/risk/rules'],
  ['GET', '/api/admin/risk/disposable-domains'],
  ['PUT', '/api/admin/risk/disposable-domains'],
  ['GET', '/api/admin/risk/blocklist'],
  ['POST', '/api/admin/risk/blocklist'],
  ['DELETE', '/api/admin/risk/blocklist/some-entry'],
  ['POST', '/api/admin/risk/backtest'],
  ['GET', '/api/admin/risk/figures'],
  ['GET', '/api/admin/risk/queue'],
  ['POST', '/api/admin/orders/some-order/approve'],
  ['POST', '/api/admin/orders/some-order/cancel'],
] as const;

describe('back office: who may call it', () => {
  let t: OrdersTestApp;
  let customer: Buyer;
  let admin: Buyer;

  beforeAll(async () => {
    t = await ordersTestApp({ sync: false });
    customer = await t.buyer();
    admin = await t.buyer('admin');
  });
  afterAll(() => t.close());

  it.each(ROUTES)('%s %s: 401 anonymous, 403 customer, not refused for an admin', async (method, url) => {
    const call = (headers: Record<string, string>) => t.app.inject({ method, url, headers, ...(method === 'GET' ? {} : { payload: {} }) });
    const anonymous = await call({});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: accountMessages.authRequired });
    const forbidden = await call(customer.headers);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ error: accountMessages.adminOnly });
    expect([401, 403]).not.toContain((await call(admin.headers)).statusCode);
  });

  it('lists every admin route of the OpenAPI here', async () => {
    const document = (await t.app.inject({ url: '/api/docs/json' })).json<{ paths: Record<string, Record<string, unknown>> }>();
    const described = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/admin/'))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, 'x')}`));
    const tested = ROUTES.map(([method, url]) => `${method} ${url.replace(/some-(order|user|game|message|seller|payout|claim|entry)/g, 'x')}`);
    expect(described.sort()).toEqual([...tested].sort());
  });
});
