import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TOP_SALES_COUNT } from '@keystore/contract/constants';
import { accessibilityViolations, launchBrowser, screenshot, visitorContextAt } from './browser.ts';

/** The label ("N of 10") of the slide in view: the others are inert. */
const currentSlide = (page: Page) => page.locator('[aria-roledescription="slide"]:not([inert])').getAttribute('aria-label');

describe('the home page', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await visitorContextAt(browser, 1280, 900);
    page = await context.newPage();
  });
  afterAll(() => browser.close());

  it('shows the collections carousel, moved by its buttons, its dots and a swipe', async () => {
    await page.goto(baseUrl);
    const carousel = page.getByRole('region', { name: 'Collections' });
    await expect.poll(() => carousel.getAttribute('aria-roledescription')).toBe('carousel');
    expect(await currentSlide(page)).toBe('1 of 10');
    expect(await page.locator('[aria-roledescription="slide"]').count()).toBe(10);
    await expect.poll(() => page.getByRole('heading', { name: 'Beer & boss fights' }).isVisible()).toBe(true);
    await screenshot(page, 'home-1280');

    await page.getByRole('button', { name: 'Next slide' }).click();
    await expect.poll(() => currentSlide(page)).toBe('2 of 10');
    await expect.poll(() => page.getByRole('heading', { name: 'Pay to die' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Previous slide' }).click();
    await expect.poll(() => currentSlide(page)).toBe('1 of 10');
    await page.getByRole('button', { name: /^Slide 5:/ }).click();
    await expect.poll(() => currentSlide(page)).toBe('5 of 10');

    // A mouse drag of 120 px to the left is a swipe to the next slide.
    const box = (await carousel.boundingBox())!;
    const y = box.y + 40;
    await page.mouse.move(box.x + 400, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 340, y, { steps: 3 });
    await page.mouse.move(box.x + 280, y, { steps: 3 });
    await page.mouse.up();
    await expect.poll(() => currentSlide(page)).toBe('6 of 10');
  });

  it('opens a collection in the store', async () => {
    await page.goto(baseUrl);
    await page.getByRole('group', { name: '1 of 10' }).getByRole('link', { name: 'Browse the collection' }).click();
    await page.waitForURL('**/store?genre=Action');
  });

  it('shows the four metrics', async () => {
    await page.goto(baseUrl);
    for (const text of ['69 000+', '150+', '100%', '24/7', 'guaranteed delivery', 'countries']) {
      await expect.poll(() => page.getByText(text, { exact: true }).isVisible()).toBe(true);
    }
  });

  it("lists 10 top sales as game cards and 'Go to catalog' leads to the store", async () => {
    await page.goto(baseUrl);
    const topSales = page.getByRole('region', { name: 'Top sales' });
    await expect.poll(() => topSales.getByRole('article').count()).toBe(TOP_SALES_COUNT);
    expect(await topSales.getByRole('article').first().textContent()).toMatch(/€\d+\.\d{2}/);
    await topSales.scrollIntoViewIfNeeded();
    await screenshot(page, 'home-top-sales-1280');
    await topSales.getByRole('link', { name: 'Go to catalog' }).click();
    await page.waitForURL(/\/store$/);
  });

  it('has no serious accessibility violations', async () => {
    await page.goto(baseUrl);
    await expect.poll(() => page.getByRole('region', { name: 'Top sales' }).getByRole('article').count()).toBe(TOP_SALES_COUNT);
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('fits a 390 px wide phone', async () => {
    const phone = await visitorContextAt(browser, 390, 844);
    const mobile = await phone.newPage();
    await mobile.goto(baseUrl);
    await expect.poll(() => mobile.getByRole('region', { name: 'Top sales' }).getByRole('article').count()).toBe(TOP_SALES_COUNT);
    // Nothing wider than the screen: no sideways scrolling.
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(mobile, 'home-390');
    await mobile.getByRole('region', { name: 'Top sales' }).evaluate((section) => section.scrollIntoView({ block: 'start' }));
    await screenshot(mobile, 'home-top-sales-390');
    expect(await accessibilityViolations(mobile)).toEqual([]);
    await phone.close();
  });
});
