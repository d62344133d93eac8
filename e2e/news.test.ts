// The news journey: an admin publishes news by hand and with the offline AI, visitors read it on
// /news and its detail page, and a customer gets the 404 page at /admin/news. The shared store has no admin,
// so this journey starts its own with ADMIN_EMAIL / ADMIN_PASSWORD.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../apps/server/src/test/png.ts';
import { adminToken as signInAdmin, createVerifiedUser, signedInContext } from './accounts.ts';
import { accessibilityViolations, launchBrowser, screenshot, visitorContextAt } from './browser.ts';
import { startStore, type StoreProcess } from './store-process.ts';

const ADMIN = { email: 'news-admin@example.org', password: 'Admin-pass1' };

/** A 64 × 64 orange PNG for the cover upload. */
function orangePng(): Buffer {
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(64 * 3, Buffer.from([0xf0, 0x80, 0x20]))]);
  return encodePng({ width: 64, height: 64, bitDepth: 8, colour: 'rgb', rows: Buffer.concat(Array.from({ length: 64 }, () => row)) });
}

describe('news', () => {
  let store: StoreProcess;
  let browser: Browser;
  let adminToken: string;
  const contexts: BrowserContext[] = [];

  async function pageAt(width: number, height: number, token?: string): Promise<Page> {
    const options = { viewport: { width, height }, bypassCSP: true };
    const context = token ? await signedInContext(browser, store.baseUrl, { token }, options) : await visitorContextAt(browser, width, height);
    contexts.push(context);
    return context.newPage();
  }

  beforeAll(async () => {
    store = await startStore({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    browser = await launchBrowser();
    adminToken = await signInAdmin(store.baseUrl, ADMIN);
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
    await store?.stop();
  });

  it('an admin creates news by hand with a cover, and it shows on /news and its page', async () => {
    const page = await pageAt(1280, 900, adminToken);
    await page.goto(`${store.baseUrl}/`);
    await page.getByRole('link', { name: 'Back office', exact: true }).first().click();
    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'News' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Admin news' }).isVisible()).toBe(true);

    await page.getByLabel('Title').fill('Winter sale starts today');
    await page.getByLabel('Category').fill('Sales');
    await page.getByLabel('Content').fill('Hundreds of keys are cheaper this week. Do not miss it.\n\nThe sale ends on Sunday at midnight.');
    await page.getByLabel('Cover Image').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: orangePng() });
    await expect.poll(() => page.getByAltText('Cover preview').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Create News' }).click();
    await expect.poll(() => page.getByText('News created!').isVisible()).toBe(true);

    await page.getByRole('link', { name: 'News', exact: true }).first().click();
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'News' }).isVisible()).toBe(true);
    await page.getByRole('link', { name: /Winter sale starts today/ }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Winter sale starts today' }).isVisible()).toBe(true);
    expect(await page.getByText('The sale ends on Sunday at midnight.').isVisible()).toBe(true);
    expect(await page.getByText(/^Published by Admin at \d{2}:\d{2} \d{2}\.\d{2}\.\d{4}$/).isVisible()).toBe(true);
    const cover = page.locator('article img').first();
    expect(await cover.getAttribute('src')).toMatch(/^\/media\/news\/[a-z0-9]+\.webp$/);
    expect(await cover.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1200);
  });

  it('an admin drafts news with the offline AI, adds a cover, approves it, and readers see it', async () => {
    const page = await pageAt(1280, 900, adminToken);
    await page.goto(`${store.baseUrl}/admin/news`);
    await page.getByLabel('Topic').fill('discounts of the week');
    await page.getByRole('button', { name: 'Generate News Text' }).click();
    const draft = page.getByRole('article', { name: 'Generated news' });
    await expect.poll(() => draft.isVisible()).toBe(true);
    const title = (await draft.getByRole('heading').textContent())!;
    expect(title).toMatch(/^Price drops: .+ now \d+% off$/);
    expect(await draft.textContent()).toContain('By Keystore AI');
    await page.getByRole('button', { name: 'Generate News Image' }).click();
    await expect.poll(() => page.getByAltText('Generated cover').isVisible()).toBe(true);
    await screenshot(page, 'news-admin-1280');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.getByText('News approved and saved!').isVisible()).toBe(true);

    const reader = await pageAt(1280, 900);
    await reader.goto(`${store.baseUrl}/news`);
    const first = reader.getByRole('list', { name: 'News' }).getByRole('listitem').first();
    await expect.poll(() => first.textContent()).toContain(title);
    await screenshot(reader, 'news-list-1280');
    expect(await accessibilityViolations(reader)).toEqual([]);
    await first.getByRole('link').click();
    await expect.poll(() => reader.getByText(/^Published by Keystore AI at /).isVisible()).toBe(true);
    expect(await reader.getByRole('region', { name: 'Other news' }).getByRole('link').count()).toBe(1);
    await screenshot(reader, 'news-detail-1280');
    expect(await accessibilityViolations(reader)).toEqual([]);

    const phone = await pageAt(390, 844);
    await phone.goto(`${store.baseUrl}/news`);
    await expect.poll(() => phone.getByRole('list', { name: 'News' }).getByRole('listitem').count()).toBe(2);
    await screenshot(phone, 'news-list-390');
  });

  it('an admin on a phone reaches the news screen through the back office from the profile', async () => {
    const page = await pageAt(390, 844, adminToken);
    await page.goto(`${store.baseUrl}/profile`);
    await page.getByRole('link', { name: 'Back office', exact: true }).first().click();
    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'News' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Admin news' }).isVisible()).toBe(true);
    await screenshot(page, 'news-admin-390');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('a customer cannot open /admin/news, and the server refuses their calls', async () => {
    const customer = await createVerifiedUser(store.baseUrl, 'reader');
    const page = await pageAt(1280, 900, customer.token);
    await page.goto(`${store.baseUrl}/admin/news`);
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'PAGE NOT FOUND' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Create News' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Admin news' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Back office', exact: true }).count()).toBe(0);
    const refused = await fetch(`${store.baseUrl}/api/news/generate-text`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${customer.token}` },
      body: JSON.stringify({ topic: 'sale' }),
    });
    expect(refused.status).toBe(403);
  });
});
