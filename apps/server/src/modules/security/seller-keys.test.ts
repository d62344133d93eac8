// A seller's keys to the store (issue 30): an API key or a webhook change asks a signed-in person for
// the password again (and the authenticator code when on), a system's API key cannot make another,
// the owner is told by mail, and a block deletes the keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityMessages, type Offer, type Seller } from '@keystore/contract';
import { BUYER_PASSWORD, ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';

let t: OrdersTestApp;
let admin: Buyer;
beforeAll(async () => {
  t = await ordersTestApp();
  admin = await t.buyer('admin');
}, 120_000);
afterAll(() => t.close());

const call = <T>(who: Buyer | { 'x-api-key': string } | undefined, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  t.app
    .inject({ method, url, headers: who ? ('headers' in who ? who.headers : who) : {}, ...(payload === undefined ? {} : { payload: payload as object }) })
    .then((answer) => ({ status: answer.statusCode, body: answer.body ? answer.json<T>() : (undefined as T) }));

async function activeSeller(name: string, game: string) {
  const user = await t.buyer();
  const applied = await call<{ seller: Seller }>(user, 'POST', '/api/sellers', { name, contactEmail: 'sales@example.com', country: 'de' });
  expect((await call(admin, 'PATCH', `/api/admin/sellers/${applied.body.seller._id}`, { status: 'active' })).status).toBe(200);
  expect((await call<{ offer: Offer }>(user, 'POST', '/api/seller/offers', { gameId: game, netPrice: 3 })).status).toBe(201);
  return { user, seller: applied.body.seller };
}

describe("a seller's API keys", () => {
  it('makes an API key only for a signed-in seller who types the password (and the app code) again; a block deletes them (issue 30)', async () => {
    const game = await t.gameWithStock(0, 41);
    const seller = await activeSeller('Careful Keys', game);
    expect((await call(seller.user, 'POST', '/api/seller/api-keys', { name: 'erp' })).status).toBe(400);
    expect((await call(seller.user, 'POST', '/api/seller/api-keys', { name: 'erp', password: 'Wrong-pass1' })).body).toEqual({ error: securityMessages.passwordWrong });
    const key = (await call<{ key: string }>(seller.user, 'POST', '/api/seller/api-keys', { name: 'erp', password: BUYER_PASSWORD })).body.key;
    // A system with a key cannot make more keys, even knowing the password.
    expect((await call({ 'x-api-key': key }, 'POST', '/api/seller/api-keys', { name: 'more', password: BUYER_PASSWORD })).body).toEqual({
      error: securityMessages.sessionRequiredForChange,
    });
    const mails = await t.app.inject({ method: 'GET', url: `/dev/mail/messages?to=${encodeURIComponent(seller.user.email)}` });
    expect(mails.json<Array<{ subject: string }>>().map((mail) => mail.subject)).toContain('Keystore: A seller API key was created');

    // With the authenticator app on, its code too.
    const setup = await call<{ secret: string }>(seller.user, 'POST', '/api/auth/totp/setup', { password: BUYER_PASSWORD });
    const { generateTOTP } = await import('@epic-web/totp');
    expect((await call(seller.user, 'POST', '/api/auth/totp/enable', { code: (await generateTOTP({ secret: setup.body.secret })).otp })).status).toBe(200);
    expect((await call(seller.user, 'POST', '/api/seller/api-keys', { name: 'second', password: BUYER_PASSWORD })).body).toEqual({ error: securityMessages.codeRequired });

    // A block deletes the account's keys: its systems are refused at once.
    expect((await call({ 'x-api-key': key }, 'GET', '/api/seller')).status).toBe(200);
    expect((await call(admin, 'PATCH', `/api/admin/users/${seller.user.userId}`, { blocked: true })).status).toBe(200);
    expect((await call({ 'x-api-key': key }, 'GET', '/api/seller')).status).toBe(401);
  });
});

describe("the risk desk's account-takeover signal", () => {
  it('counts a recent security change of the buyer (here the authenticator app turned off) as an untrusted sign-in at checkout', async () => {
    const { riskCheckouts } = await import('../risk/schema.ts');
    const { eq } = await import('drizzle-orm');
    const game = await t.gameWithStock(20, 43);
    const signalOf = async (orderId: string) => (await t.database.db.select().from(riskCheckouts).where(eq(riskCheckouts.orderId, orderId)))[0]?.signals.untrustedSignIn;

    const calm = await t.buyer();
    expect(await signalOf((await t.order(calm, game)).order._id)).toBe(false);

    const changed = await t.buyer();
    const { generateTOTP } = await import('@epic-web/totp');
    const setup = await call<{ secret: string }>(changed, 'POST', '/api/auth/totp/setup', { password: BUYER_PASSWORD });
    expect((await call(changed, 'POST', '/api/auth/totp/enable', { code: (await generateTOTP({ secret: setup.body.secret })).otp })).status).toBe(200);
    expect(await signalOf((await t.order(changed, game)).order._id)).toBe(false);
    await t.app.security.recordNow(changed.userId, 'totp-disabled', { ip: '127.0.0.1' });
    expect(await signalOf((await t.order(changed, game)).order._id)).toBe(true);
  });
});
