import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { accessibilityViolations, launchBrowser, newVisitorPage, screenshot } from './browser.ts';

/** The euro prices of the cards on screen once the page has loaded, in order (a card's first amount is its price). */
async function cardPrices(page: Page): Promise<number[]> {
  await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
  return page.getByRole('article').evaluateAll((cards) =>
    cards.map((card) => Number(/€([\d,]+\.\d{2})/.exec(card.textContent ?? '')?.[1]?.replace(/,/g, '') ?? NaN)),
  );
}

/**
 * The prices once the grid shows a full page in the given order: right after the URL changes the
 * previous page may still be on screen for a moment, so this waits for what the visitor ends up seeing.
 */
async function fullPageInOrder(page: Page, inOrder: (before: number, after: number) => boolean): Promise<number[]> {
  let prices: number[] = [];
  await expect
    .poll(async () => {
      prices = await cardPrices(page);
      return prices.length === 20 && prices.every((price, index) => index === 0 || inOrder(prices[index - 1]!, price));
    })
    .toBe(true);
  return prices;
}

/** The number in the "N products" line above the grid. */
async function shownTotal(page: Page): Promise<number> {
  const text = (await page.getByText(/^\d+ products?$/).textContent()) ?? '';
  return Number.parseInt(text, 10);
}

describe('browsing the store', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await newVisitorPage(browser, { viewport: { width: 1280, height: 900 } });
  });
  afterAll(() => browser.close());

  it('lists 20 games from the catalogue and pages through them with numbered pages', async () => {
    await page.goto(`${baseUrl}/store`);
    await expect.poll(() => page.getByRole('heading', { name: 'Store', level: 1 }).isVisible()).toBe(true);
    const cards = page.getByRole('article');
    await expect.poll(() => cards.count()).toBe(20);
    await expect.poll(() => page.getByText(/^\d+ products$/).textContent()).toMatch(/^\d{3} products$/);
    const pages = Math.ceil((await shownTotal(page)) / 20);
    const firstTitle = await cards.first().getByRole('heading').textContent();
    await screenshot(page, 'store-1280');

    const pagination = page.getByRole('navigation', { name: 'Pagination' });
    // More than 5 pages: collapsed to 1 2 3 4 … last.
    expect(await pagination.locator('li').allTextContents()).toEqual(['1', '2', '3', '4', '…', String(pages)]);
    expect(await pagination.getByRole('link', { name: 'Page 1', exact: true }).getAttribute('aria-current')).toBe('page');

    await pagination.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL('**/store?page=2');
    await expect.poll(() => cards.first().getByRole('heading').textContent()).not.toBe(firstTitle);
    await expect.poll(() => pagination.getByRole('link', { name: 'Page 2', exact: true }).getAttribute('aria-current')).toBe('page');

    await pagination.getByRole('link', { name: 'Page 4', exact: true }).click();
    await page.waitForURL('**/store?page=4');
    await expect.poll(() => pagination.locator('li').allTextContents()).toEqual(['1', '2', '3', '4', '5', '…', String(pages)]);
    await pagination.getByRole('link', { name: `Page ${pages}`, exact: true }).click();
    await page.waitForURL(`**/store?page=${pages}`);
    await expect.poll(() => pagination.getByText('Next').getAttribute('aria-disabled')).toBe('true');
    const lastPageCount = (await shownTotal(page)) - (pages - 1) * 20;
    await expect.poll(() => cards.count()).toBe(lastPageCount);

    await page.goBack();
    await page.goBack();
    await page.waitForURL('**/store?page=2');
    await page.goBack();
    await page.waitForURL('**/store');
    await expect.poll(() => cards.first().getByRole('heading').textContent()).toBe(firstTitle);
  });

  it('shows each game with a generated cover, its platform and a euro price', async () => {
    await page.goto(`${baseUrl}/store`);
    const card = page.getByRole('article').first();
    await expect.poll(() => card.isVisible()).toBe(true);
    await expect.poll(() => card.locator('img').evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    expect(await card.textContent()).toMatch(/€\d+\.\d{2}/);
  });

  it('filters by a platform tab and a genre, the genre count matching the results', async () => {
    await page.goto(`${baseUrl}/store?page=3`);
    const tabs = page.getByRole('group', { name: 'Platforms' });
    await expect.poll(() => tabs.getByRole('button', { name: 'All' }).getAttribute('aria-pressed')).toBe('true');
    const all = await shownTotal(page);

    await tabs.getByRole('button', { name: 'PSN' }).click();
    await page.waitForURL('**/store?platform=ps4,ps5,ps3');
    await expect.poll(() => tabs.getByRole('button', { name: 'PSN' }).getAttribute('aria-pressed')).toBe('true');
    expect(await tabs.getByRole('button', { name: 'All' }).getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => shownTotal(page)).toBeLessThan(all);
    const platforms = await page.getByRole('article').evaluateAll((cards) => cards.map((card) => card.textContent ?? ''));
    for (const text of platforms) expect(text).toMatch(/PS[345]/);

    const filters = page.getByRole('complementary', { name: 'Filters' });
    for (const platform of ['PS4', 'PS5', 'PS3']) expect(await filters.getByRole('checkbox', { name: platform, exact: true }).isChecked()).toBe(true);
    const rpg = filters.getByRole('checkbox', { name: 'RPG', exact: true });
    const rpgCount = Number(await page.locator(`[id="${await rpg.getAttribute('aria-describedby')}"]`).textContent());
    expect(rpgCount).toBeGreaterThan(0);
    // The filter lives in the URL: the box shows as ticked once the navigation has rendered, which
    // can be a frame after the click (router navigations are transitions), so click and then wait.
    await rpg.click();
    await page.waitForURL('**/store?platform=ps4,ps5,ps3&genre=RPG');
    await expect.poll(() => rpg.isChecked()).toBe(true);
    await expect.poll(() => shownTotal(page)).toBe(rpgCount);
    await expect.poll(() => page.getByRole('article').count()).toBe(Math.min(20, rpgCount));

    // A per-filter Reset clears that filter only.
    await filters.getByRole('button', { name: 'Reset Platform' }).click();
    await page.waitForURL('**/store?genre=RPG');
    await expect.poll(() => tabs.getByRole('button', { name: 'All' }).getAttribute('aria-pressed')).toBe('true');
    await screenshot(page, 'store-filtered-1280');
  });

  it('sorts by price both ways, and back/forward restore the previous state', async () => {
    await page.goto(`${baseUrl}/store?platform=pc`);
    await expect.poll(() => page.getByRole('article').count()).toBe(20);
    const sort = page.getByRole('combobox', { name: 'Sort by' });
    expect(await sort.inputValue()).toBe('popularity');

    await sort.selectOption({ label: 'By price (from low to high)' });
    await page.waitForURL('**/store?platform=pc&sort=price-asc');
    const ascending = await fullPageInOrder(page, (before, after) => after >= before);
    const cheapest = ascending[0]!;

    await sort.selectOption({ label: 'By price (from high to low)' });
    await page.waitForURL('**/store?platform=pc&sort=price-desc');
    const prices = await fullPageInOrder(page, (before, after) => after <= before);
    expect(prices[0]).toBeGreaterThan(cheapest);

    await page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Page 2', exact: true }).click();
    await page.waitForURL('**/store?platform=pc&sort=price-desc&page=2');

    await page.goBack();
    await page.waitForURL('**/store?platform=pc&sort=price-desc');
    await page.goBack();
    await page.waitForURL('**/store?platform=pc&sort=price-asc');
    await expect.poll(() => sort.inputValue()).toBe('price-asc');
    await expect.poll(async () => (await cardPrices(page))[0]).toBe(cheapest);
    await page.goBack();
    await page.waitForURL('**/store?platform=pc');
    await expect.poll(() => sort.inputValue()).toBe('popularity');
    expect(await page.getByRole('group', { name: 'Platforms' }).getByRole('button', { name: 'PC' }).getAttribute('aria-pressed')).toBe('true');

    await page.goForward();
    await page.waitForURL('**/store?platform=pc&sort=price-asc');
    await expect.poll(() => sort.inputValue()).toBe('price-asc');
  });

  it('shows the search results header and "Not found :(" for a search with no match', async () => {
    await page.goto(`${baseUrl}/store?search=witcher`);
    await expect.poll(() => page.getByRole('heading', { name: 'Search results for: "witcher"', level: 1 }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('article').count()).toBeGreaterThan(0);
    const titles = await page.getByRole('article').getByRole('heading').allTextContents();
    expect(titles.some((title) => /witcher/i.test(title))).toBe(true);

    await page.goto(`${baseUrl}/store?search=zzzzqqqxxx`);
    await expect.poll(() => page.getByText('Not found :(').isVisible()).toBe(true);
    expect(await page.getByRole('article').count()).toBe(0);
  });

  it('opens a game from low on the page at its top, and Back returns to the same place in the list', async () => {
    await page.goto(`${baseUrl}/store?sort=price-asc`);
    await fullPageInOrder(page, (before, after) => before <= after);
    const lastCard = page.getByRole('article').last();
    await lastCard.scrollIntoViewIfNeeded();
    const listScroll = await page.evaluate(() => window.scrollY);
    expect(listScroll).toBeGreaterThan(300);

    await lastCard.getByRole('link').first().click();
    await page.waitForURL('**/game/**');
    await expect.poll(() => page.getByRole('button', { name: 'Buy in 1 click' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await page.goBack();
    await page.waitForURL('**/store?sort=price-asc');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(listScroll);
  });

  it('has no serious accessibility violations', async () => {
    // axe-core is injected as an inline script, which the store's Content-Security-Policy rightly forbids.
    const audited = await newVisitorPage(browser, { viewport: { width: 1280, height: 900 }, bypassCSP: true });
    await audited.goto(`${baseUrl}/store?genre=Action`);
    await expect.poll(() => audited.getByRole('article').count()).toBe(20);
    expect(await accessibilityViolations(audited)).toEqual([]);
    await audited.close();
  });

  it('runs under the Content-Security-Policy without errors in the console', async () => {
    const errors: string[] = [];
    const checked = await newVisitorPage(browser);
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

describe('the store on a phone', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await newVisitorPage(browser, { viewport: { width: 390, height: 844 }, bypassCSP: true, isMobile: true, hasTouch: true });
  });
  afterAll(() => browser.close());

  it('filters in a drawer that applies on Apply, closes with Escape and keeps focus inside', async () => {
    await page.goto(`${baseUrl}/store`);
    await expect.poll(() => page.getByRole('article').count()).toBe(20);
    expect(await page.getByRole('complementary', { name: 'Filters' }).isVisible()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'store-390');

    const open = page.getByRole('button', { name: 'Filters' });
    await open.click();
    const drawer = page.getByRole('dialog', { name: 'Set your parameters' });
    await expect.poll(() => drawer.isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);

    // Focus stays inside: tabbing past the last control comes back to the first.
    await drawer.getByRole('button', { name: 'Apply' }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Close');
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Apply');

    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Filters');

    await open.click();
    await drawer.getByRole('checkbox', { name: 'Action', exact: true }).check();
    await drawer.getByRole('checkbox', { name: 'Europe', exact: true }).check();
    await screenshot(page, 'store-drawer-390');
    // Nothing changes until Apply.
    expect(new URL(page.url()).search).toBe('');
    await drawer.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL('**/store?genre=Action&region=Europe');
    await expect.poll(() => drawer.count()).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: 'Filters (2)' }).isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'store-filtered-390');
  });
});
