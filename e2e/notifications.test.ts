// The notifications bell in a real browser against a store of its own (with an admin, and no other
// journey's notifications): a visitor reads public notifications and sees a new one arrive live; a
// signed-in buyer gets 'Order paid' and 'Keys delivered' the moment an order is paid.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifiedUser, login, mailedCode, signedInContext } from './accounts.ts';
import { accessibilityViolations, launchBrowser, screenshot, visitorContextAt } from './browser.ts';
import { gamesInStock } from './shopping.ts';
import { startStore, type StoreProcess } from './store-process.ts';

const ADMIN = { email: 'notify-admin@example.org', password: 'Admin-pass1' };

describe('notifications', () => {
  let store: StoreProcess;
  let baseUrl: string;
  let browser: Browser;
  let adminToken: string;
  const contexts: BrowserContext[] = [];

  async function api(method: string, path: string, token: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}`);
    return response.status === 204 ? undefined : response.json();
  }
  const publish = (title: string, text: string) => api('POST', '/api/admin/notifications', adminToken, { title, text });
  const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
  const dropdown = (page: Page) => page.getByRole('dialog', { name: 'Notifications' });

  beforeAll(async () => {
    store = await startStore({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    baseUrl = store.baseUrl;
    // The admin account does not know this address yet: the sign-in code comes by mail.
    await login(baseUrl, ADMIN.email, ADMIN.password);
    const code = await mailedCode(baseUrl, ADMIN.email, /sign-in code/);
    const verified = await fetch(`${baseUrl}/api/auth/verify-new-device`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: ADMIN.email, code }),
    });
    adminToken = ((await verified.json()) as { token: string }).token;
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await store?.stop();
  });

  it('lets a visitor read public notifications, keeps the reads, and shows a new one live', async () => {
    await publish('"Maintenance tonight"', 'The store is down from 02:00 to 03:00 UK time.');
    await publish('Weekend sale', 'Up to 80% off strategy games until Sunday.');
    await publish('New arrivals', 'Twenty new titles from indie studios.');
    const context = await visitorContextAt(browser, 1280, 900);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(baseUrl);
    await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications, 3 unread');

    await bell(page).click();
    const panel = dropdown(page);
    await expect.poll(() => panel.getByRole('listitem').count()).toBe(2);
    expect(await panel.getByText('Maintenance tonight', { exact: true }).count()).toBe(0);
    await panel.getByRole('button', { name: 'View All Notifications' }).click();
    await expect.poll(() => panel.getByRole('listitem').count()).toBe(3);
    expect(await panel.getByText('Maintenance tonight', { exact: true }).isVisible()).toBe(true);
    expect(await panel.getByRole('listitem').first().locator('time').textContent()).toMatch(/^\d{2}:\d{2} \d{2}\.\d{2}\.\d{2}$/);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'notifications-1280');

    await panel.getByRole('button', { name: /New arrivals/ }).click();
    await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications, 2 unread');
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Notifications, 2 unread');

    await page.reload();
    await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications, 2 unread');
    await publish('Flash deal', 'One hour only.');
    await expect.poll(() => bell(page).getAttribute('aria-label'), { timeout: 10_000 }).toBe('Notifications, 3 unread');

    await page.setViewportSize({ width: 390, height: 844 });
    await bell(page).click();
    await expect.poll(() => panel.getByText('Flash deal').isVisible()).toBe(true);
    await panel.getByRole('button', { name: 'Read all' }).click();
    await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'notifications-390');
  });

  it('tells a signed-in buyer live that the order is paid and the keys are delivered', async () => {
    const account = await createVerifiedUser(baseUrl, 'notified');
    const context = await signedInContext(browser, baseUrl, account, { viewport: { width: 1280, height: 900 }, bypassCSP: true });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(baseUrl);
    // The four public notifications of the visitor's journey, unread for this account.
    await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications, 4 unread');

    const game = (await gamesInStock(baseUrl))[0]!;
    const placed = (await api('POST', '/api/orders', account.token, { items: [{ gameId: game._id, quantity: 1 }] })) as { order: { _id: string } };
    await api('POST', `/api/payments/test/${placed.order._id}`, account.token, { cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123', name: 'Ada Player' });
    await expect.poll(() => bell(page).getAttribute('aria-label'), { timeout: 10_000 }).toBe('Notifications, 6 unread');

    await bell(page).click();
    const panel = dropdown(page);
    await panel.getByRole('button', { name: 'View All Notifications' }).click();
    expect(await panel.getByText('Order paid').isVisible()).toBe(true);
    expect(await panel.getByText('Keys delivered').isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'notifications-buyer-1280');
    await panel.getByRole('button', { name: 'Read all' }).click();
    await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications');
    // Saved on the server: once the calls are in, a reload still shows everything read.
    const allRead = async () => ((await api('GET', '/api/notifications', account.token)) as Array<{ isRead: boolean }>).every((n) => n.isRead);
    await expect.poll(allRead).toBe(true);
    await page.reload();
    await expect.poll(() => bell(page).getAttribute('aria-label')).toBe('Notifications');
  });
});
