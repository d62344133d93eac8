// An order held for review (issue 29) in a real browser: a shopper pays with a card the gateway rates
// elevated risk (4000 0000 0000 9235); the pay page and the library say the payment is authorised, not
// charged, and no key is there; the owner finds the order in the risk desk's review queue, reads why it
// was held, and approves it; the shopper's library then shows the key. This journey
// starts its own store with an admin.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, createVerifiedUser, signedInContext, type TestAccount } from './accounts.ts';
import { accessibilityViolations, launchBrowser, screenshot } from './browser.ts';
import { addToCart, euro, gamesInStock, proceedToCheckout, type ListedGame } from './shopping.ts';
import { startStore, type StoreProcess } from './store-process.ts';

const ADMIN = { email: 'owner@example.org', password: 'Owner-pass1' };
const IN_REVIEW = 'Payment authorised, not charged. We check a small share of orders by hand, usually within a few hours. If we cannot approve it, the hold is released and you pay nothing.';

describe('an order held for review', () => {
  let store: StoreProcess;
  let browser: Browser;
  let admin: string;
  let shopper: TestAccount;
  let game: ListedGame;
  let shopperPage: Page;
  let orderId: string;
  const contexts: BrowserContext[] = [];

  async function pageAs(token: string, address: string): Promise<Page> {
    const context = await signedInContext(browser, store.baseUrl, { token }, { viewport: { width: 1280, height: 900 }, bypassCSP: true, extraHTTPHeaders: { 'x-forwarded-for': address } });
    contexts.push(context);
    return context.newPage();
  }

  beforeAll(async () => {
    store = await startStore({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    browser = await launchBrowser();
    admin = await adminToken(store.baseUrl, ADMIN);
    shopper = await createVerifiedUser(store.baseUrl, 'held');
    game = (await gamesInStock(store.baseUrl))[0]!;
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
    await store?.stop();
  });

  it('says the payment is authorised, not charged, and shows no key yet', async () => {
    shopperPage = await pageAs(shopper.token, '198.51.100.31');
    const page = shopperPage;
    await addToCart(page, store.baseUrl, game);
    await proceedToCheckout(page, store.baseUrl);
    await page.waitForURL('**/pay/*');
    orderId = new URL(page.url()).pathname.split('/').at(-1)!;
    await page.getByLabel('Card number').fill('4000 0000 0000 9235');
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('CVC').fill('123');
    await page.getByLabel('Name on card').fill('Held Player');
    await page.getByRole('button', { name: `Pay ${euro(game.price)}` }).click();
    await page.waitForURL('**/library?order=*');
    const note = page.getByRole('status').filter({ hasText: 'Payment authorised, not charged.' });
    await expect.poll(() => note.textContent(), { timeout: 10_000 }).toBe(IN_REVIEW);
    expect(await page.getByRole('list', { name: 'Your games' }).count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'review-library-held-1280');

    // The order history says so too.
    await page.goto(`${store.baseUrl}/profile`);
    const history = page.getByRole('region', { name: 'Order history' });
    await expect.poll(() => history.getByText('In review').first().isVisible()).toBe(true);
  });

  it("lets the owner find it in the review queue, see why, and approve it", async () => {
    const page = await pageAs(admin, '198.51.100.10');
    await page.goto(`${store.baseUrl}/admin/risk`);
    const queue = page.getByRole('table', { name: 'Orders waiting for review' });
    await expect.poll(() => queue.getByRole('link', { name: `Review order ${orderId}` }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await queue.getByText("The payment provider rates this payment's risk as elevated").isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'review-queue-1280');

    await queue.getByRole('link', { name: `Review order ${orderId}` }).click();
    const risk = page.getByRole('region', { name: 'Risk' });
    await expect.poll(() => risk.getByText(/40 of 100 · held for review/).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Approve' }).click();
    const dialog = page.getByRole('dialog', { name: 'Approve?' });
    await dialog.getByLabel('Reason (optional)').fill('Known customer');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => risk.getByText(/Approved by an admin/).isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshot(page, 'review-order-approved-1280');
  });

  it("shows the shopper's key once the order is approved", async () => {
    await shopperPage.goto(`${store.baseUrl}/library?order=${orderId}`);
    const card = shopperPage.getByRole('list', { name: 'Your games' }).getByRole('listitem').filter({ hasText: game.title });
    await expect.poll(() => card.count(), { timeout: 20_000 }).toBe(1);
    await card.getByRole('button', { name: `Reveal Key of ${game.title}` }).click();
    await expect.poll(() => card.locator('code').textContent()).toMatch(/^DEMO-/);
  });
});
