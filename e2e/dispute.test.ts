// A disputed payment (issue 29) in a real browser: a seller offers one key below the house's price; a
// shopper buys it with the test gateway's disputed card (4000 0000 0000 0259) and sees it in the library
// without revealing it; a few seconds later the card holder's dispute arrives: the key is gone from the
// library, the shopper is blocked (signed out, and refused at sign-in), the seller is told its key came
// back, and the next shopper buys that same key. The owner sees the order Disputed. The ledger stays at
// zero. This journey starts its own store: a dispute blocks its buyer's address, card and browser.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, call, createVerifiedUser, login, signedInContext, type TestAccount } from './accounts.ts';
import { accessibilityViolations, launchBrowser, screenshot } from './browser.ts';
import { addToCart, euro, gamesInStock, proceedToCheckout, type ListedGame } from './shopping.ts';
import { startStore, type StoreProcess } from './store-process.ts';

const ADMIN = { email: 'owner@example.org', password: 'Owner-pass1' };
const KEY = 'DISPUTE-KEY-0001';

describe('a disputed payment', () => {
  let store: StoreProcess;
  let browser: Browser;
  let admin: string;
  let seller: TestAccount;
  let fraudster: TestAccount;
  let next: TestAccount;
  let game: ListedGame;
  let price: number;
  let orderId: string;
  const contexts: BrowserContext[] = [];

  /** A signed-in tab coming from its own address (the store trusts X-Forwarded-For here), as separate people do. */
  async function pageAs(account: TestAccount, address: string): Promise<Page> {
    const context = await signedInContext(browser, store.baseUrl, account, { viewport: { width: 1280, height: 900 }, bypassCSP: true, extraHTTPHeaders: { 'x-forwarded-for': address } });
    contexts.push(context);
    return context.newPage();
  }

  async function pay(page: Page, cardNumber: string) {
    await page.getByLabel('Card number').fill(cardNumber);
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('CVC').fill('123');
    await page.getByLabel('Name on card').fill('Some Player');
    await page.getByRole('button', { name: `Pay ${euro(price)}` }).click();
  }

  beforeAll(async () => {
    store = await startStore({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    browser = await launchBrowser();
    admin = await adminToken(store.baseUrl, ADMIN);
    [seller, fraudster, next] = await Promise.all([createVerifiedUser(store.baseUrl, 'seller'), createVerifiedUser(store.baseUrl, 'fraud'), createVerifiedUser(store.baseUrl, 'next')]);
    game = (await gamesInStock(store.baseUrl)).find((candidate) => candidate.price >= 4)!;
    // The seller, approved, offers one key at a net price well below the house's: its offer is the best.
    const applied = await call<{ seller: { _id: string } }>(store.baseUrl, 'POST', '/api/sellers', { name: 'Returned Keys', contactEmail: seller.email, country: 'de' }, seller.token);
    expect((await call(store.baseUrl, 'PATCH', `/api/admin/sellers/${applied.body.seller._id}`, { status: 'active' }, admin)).status).toBe(200);
    const offer = await call<{ offer: { _id: string; price: number } }>(store.baseUrl, 'POST', '/api/seller/offers', { gameId: game._id, netPrice: 1 }, seller.token);
    expect((await call<{ added: number }>(store.baseUrl, 'POST', `/api/seller/offers/${offer.body.offer._id}/keys`, { keys: [KEY] }, seller.token)).body.added).toBe(1);
    price = offer.body.offer.price;
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
    await store?.stop();
  });

  it("buys the seller's key with the disputed card and sees it in the library, unrevealed", async () => {
    const page = await pageAs(fraudster, '198.51.100.66');
    await addToCart(page, store.baseUrl, game);
    await proceedToCheckout(page, store.baseUrl);
    await page.waitForURL('**/pay/*');
    orderId = new URL(page.url()).pathname.split('/').at(-1)!;
    await pay(page, '4000 0000 0000 0259');
    await page.waitForURL('**/library?order=*');
    const card = page.getByRole('list', { name: 'Your games' }).getByRole('listitem').filter({ hasText: game.title });
    await expect.poll(() => card.count(), { timeout: 20_000 }).toBe(1);

    // The dispute arrives a few seconds later: the key leaves the library, and the account is blocked.
    await expect.poll(async () => (await call<{ order: { status: string } }>(store.baseUrl, 'GET', `/api/admin/orders/${orderId}`, undefined, admin)).body.order.status, { timeout: 20_000 }).toBe('Disputed');
    expect((await call(store.baseUrl, 'GET', '/api/purchases', undefined, fraudster.token)).status).toBe(403);
    await page.reload();
    // Signed out: the stored session is refused, so the header offers to sign in again.
    await expect.poll(() => page.getByRole('button', { name: 'Login' }).first().isVisible(), { timeout: 10_000 }).toBe(true);
    expect((await login(store.baseUrl, fraudster.email, fraudster.password)).status).toBeGreaterThanOrEqual(400);
    await screenshot(page, 'dispute-buyer-signed-out-1280');
  });

  it('shows the owner the order Disputed, with the key taken back in its timeline', async () => {
    const page = await pageAs({ ...seller, token: admin }, '198.51.100.10');
    await page.goto(`${store.baseUrl}/admin/orders/${orderId}`);
    await expect.poll(() => page.getByText('Disputed').first().isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'dispute-admin-order-1280');
    const ledger = await call<{ total: number }>(store.baseUrl, 'GET', '/api/admin/ledger/balance', undefined, admin);
    expect(ledger.body.total).toBe(0);
  });

  it("tells the seller its key came back, and sells that key to the next shopper", async () => {
    const notes = await call<Array<{ title: string; text: string }>>(store.baseUrl, 'GET', '/api/notifications', undefined, seller.token);
    expect(notes.body.find((note) => note.title === 'Keys back after a dispute')?.text).toContain(game.title);

    const page = await pageAs(next, '198.51.100.20');
    await addToCart(page, store.baseUrl, game);
    await proceedToCheckout(page, store.baseUrl);
    await page.waitForURL('**/pay/*');
    await pay(page, '4242 4242 4242 4242');
    await page.waitForURL('**/library?order=*');
    const card = page.getByRole('list', { name: 'Your games' }).getByRole('listitem').filter({ hasText: game.title });
    await expect.poll(() => card.count(), { timeout: 20_000 }).toBe(1);
    await card.getByRole('button', { name: `Reveal Key of ${game.title}` }).click();
    await expect.poll(() => card.locator('code').textContent()).toBe(KEY);
    await screenshot(page, 'dispute-next-buyer-key-1280');
  });
});
