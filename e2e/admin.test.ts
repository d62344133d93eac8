// The back office journey (issue 15): an admin finds a customer's order by e-mail, reads its
// timeline, sends the keys again and refunds it; hides a game, which leaves the store; and a customer
// at /admin gets the 404 page. This journey starts its own store with an admin.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, call, createVerifiedUser, mailsTo, signedInContext, type TestAccount } from './accounts.ts';
import { accessibilityViolations, launchBrowser, screenshot } from './browser.ts';
import { gamesInStock, type ListedGame } from './shopping.ts';
import { startStore, type StoreProcess } from './store-process.ts';

const ADMIN = { email: 'owner@example.org', password: 'Owner-pass1' };
const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123', name: 'Ada Player' };

describe('the back office', () => {
  let store: StoreProcess;
  let browser: Browser;
  let admin: string;
  let customer: TestAccount;
  let bought: ListedGame;
  let orderId: string;
  /** The x-request-id of the call that placed the order: the timeline names it, for the logs. */
  let placedBy: string;
  let serial: string;
  const contexts: BrowserContext[] = [];

  async function pageAs(token: string, width = 1280, height = 900): Promise<Page> {
    const context = await signedInContext(browser, store.baseUrl, { token }, { viewport: { width, height }, bypassCSP: true });
    contexts.push(context);
    return context.newPage();
  }
  const purchases = async () => (await call<Array<{ _id: string; product: { title: string } }>>(store.baseUrl, 'GET', '/api/purchases', undefined, customer.token)).body;

  beforeAll(async () => {
    store = await startStore({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    browser = await launchBrowser();
    admin = await adminToken(store.baseUrl, ADMIN);
    // A customer buys a game and reveals its key.
    customer = await createVerifiedUser(store.baseUrl, 'regular');
    bought = (await gamesInStock(store.baseUrl))[0]!;
    const placed = await call<{ order: { _id: string } }>(store.baseUrl, 'POST', '/api/orders', { items: [{ gameId: bought._id, quantity: 1 }] }, customer.token);
    orderId = placed.body.order._id;
    placedBy = placed.requestId!;
    await call(store.baseUrl, 'POST', `/api/payments/test/${orderId}`, CARD, customer.token);
    for (let tries = 0; (await purchases()).length === 0 && tries < 100; tries += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    const [purchase] = await purchases();
    serial = (await call<{ key: string }>(store.baseUrl, 'GET', `/api/purchases/${purchase!._id}/key`, undefined, customer.token)).body.key;
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
    await store?.stop();
  });

  it("finds a customer's order by e-mail, reads its timeline, sends the keys again and refunds it", async () => {
    const page = await pageAs(admin);
    await page.goto(`${store.baseUrl}/`);
    await page.getByRole('link', { name: 'Back office', exact: true }).first().click();
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Dashboard' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Today’s revenue').isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'admin-dashboard-1280');

    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('search', { name: 'Filter orders' }).getByLabel('Search').fill(customer.email);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('link', { name: new RegExp(orderId.slice(0, 6)) }).first().click();
    await expect.poll(() => page.getByRole('heading', { level: 1, name: /^Order / }).isVisible()).toBe(true);
    const timeline = page.getByRole('table', { name: 'Timeline' });
    await expect.poll(() => timeline.getByText('Awaiting payment → Paid').isVisible()).toBe(true);
    // Each step names the request that made it, to find in the logs.
    expect(await timeline.getByRole('row').filter({ hasText: 'new → Awaiting payment' }).getByRole('cell').last().textContent()).toBe(placedBy);
    // An admin sees the key's last characters, never the whole key.
    expect(await page.getByText(serial.slice(-4), { exact: false }).first().isVisible()).toBe(true);
    expect(await page.content()).not.toContain(serial);
    await screenshot(page, 'admin-order-1280');
    await timeline.scrollIntoViewIfNeeded();
    await screenshot(page, 'admin-order-timeline-1280');

    const receipts = (await mailsTo(store.baseUrl, customer.email)).length;
    await page.getByRole('button', { name: 'Resend keys' }).click();
    const resend = page.getByRole('dialog');
    await resend.getByLabel('Reason (optional)').fill('Lost the first e-mail');
    await resend.getByRole('button', { name: 'Resend keys' }).click();
    await expect.poll(async () => (await mailsTo(store.baseUrl, customer.email)).length).toBe(receipts + 1);
    await expect.poll(() => timeline.getByText('Lost the first e-mail').isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Refund' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Refund' }).click();
    await expect.poll(() => timeline.getByText('Paid → Refunded').isVisible()).toBe(true);
    // The refunded key has left the customer's library.
    await expect.poll(async () => (await purchases()).length).toBe(0);

    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Audit log' }).click();
    await expect.poll(() => page.getByText('order.refund').first().isVisible()).toBe(true);
  });

  it('hides a game, and the store no longer shows it', async () => {
    const game = (await gamesInStock(store.baseUrl)).find((candidate) => candidate._id !== bought._id)!;
    const page = await pageAs(admin);
    await page.goto(`${store.baseUrl}/admin/catalogue`);
    await page.getByRole('search', { name: 'Find games' }).getByLabel('Search games').fill(game.title);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByLabel(`Hide ${game.title}`).first().click();
    await expect.poll(async () => (await fetch(`${store.baseUrl}/api/games/${game._id}`)).status).toBe(404);
    await screenshot(page, 'admin-catalogue-1280');
    await page.goto(`${store.baseUrl}/game/${game._id}`);
    await expect.poll(() => page.getByText('Game not found').isVisible()).toBe(true);
  });

  it('shows a customer the 404 page at any /admin address', async () => {
    const page = await pageAs(customer.token, 390, 844);
    for (const path of ['/admin', '/admin/orders', `/admin/orders/${orderId}`]) {
      await page.goto(`${store.baseUrl}${path}`);
      await expect.poll(() => page.getByRole('heading', { name: 'PAGE NOT FOUND' }).isVisible()).toBe(true);
    }
    expect((await call(store.baseUrl, 'GET', '/api/admin/orders', undefined, customer.token)).status).toBe(403);
  });
});
