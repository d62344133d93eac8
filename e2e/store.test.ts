import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { accessibilityViolations, launchBrowser, screenshot } from './browser.ts';

describe('browsing the store', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });
  afterAll(() => browser.close());

  it('opens on the store, lists 20 games from the catalogue and pages through them', async () => {
    await page.goto(baseUrl);
    await page.waitForURL('**/store');
    await expect.poll(() => page.getByRole('heading', { name: 'Store' }).isVisible()).toBe(true);
    const cards = page.getByRole('article');
    await expect.poll(() => cards.count()).toBe(20);
    await expect.poll(() => page.getByText(/\d+ products/).textContent()).toMatch(/^\d{3} products$/);
    const firstTitle = await cards.first().getByRole('heading').textContent();
    await screenshot(page, 'store-page-1');

    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/store?page=2');
    await expect.poll(() => cards.first().getByRole('heading').textContent()).not.toBe(firstTitle);
    await expect.poll(() => page.getByText('Page 2 of').isVisible()).toBe(true);

    await page.goBack();
    await expect.poll(() => cards.first().getByRole('heading').textContent()).toBe(firstTitle);
  });

  it('shows each game with a generated cover, its platform and a euro price', async () => {
    await page.goto(`${baseUrl}/store`);
    const card = page.getByRole('article').first();
    await expect.poll(() => card.isVisible()).toBe(true);
    await expect.poll(() => card.locator('img').evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    expect(await card.textContent()).toMatch(/€\d+\.\d{2}/);
  });

  it('has no serious accessibility violations', async () => {
    // axe-core is injected as an inline script, which the store's Content-Security-Policy rightly forbids.
    const audited = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    await audited.goto(`${baseUrl}/store`);
    await expect.poll(() => audited.getByRole('article').count()).toBe(20);
    expect(await accessibilityViolations(audited)).toEqual([]);
    await audited.close();
  });

  it('runs under the Content-Security-Policy without errors in the console', async () => {
    const errors: string[] = [];
    const checked = await browser.newPage();
    checked.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    checked.on('pageerror', (error) => errors.push(error.message));
    await checked.goto(`${baseUrl}/store`);
    await expect.poll(() => checked.getByRole('article').count()).toBe(20);
    expect(errors).toEqual([]);
    await checked.close();
  });
});
