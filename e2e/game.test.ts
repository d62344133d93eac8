import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Game } from '@keystore/contract';
import { STORAGE_KEYS } from '../apps/web/src/lib/storage-keys.ts';
import { accessibilityViolations, launchBrowser, screenshot, visitorContextAt } from './browser.ts';

/** The value beside an info row's label. */
const infoValue = (page: Page, label: string) => page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd').textContent();

describe('the game page', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let game: Game;

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await visitorContextAt(browser, 1280, 900);
    page = await context.newPage();
  });
  afterAll(() => browser.close());

  it('opens from the store and shows the breadcrumbs, the info rows and the real stock', async () => {
    await page.goto(`${baseUrl}/store`);
    const card = page.getByRole('article').first();
    await expect.poll(() => card.isVisible()).toBe(true);
    await card.getByRole('heading').click();
    await page.waitForURL('**/game/*');
    const id = new URL(page.url()).pathname.split('/').pop()!;
    game = (await (await page.request.get(`${baseUrl}/api/games/${id}`)).json()) as Game;

    await expect.poll(() => page.getByRole('heading', { level: 1, name: game.title }).isVisible()).toBe(true);
    await expect.poll(() => page.title()).toBe(`${game.title} (${game.platform}) · Keystore`);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    expect(await crumbs.getByRole('listitem').allTextContents()).toEqual(['Main', 'Games', game.platform, game.genre[0] ?? 'Adventure', game.title]);

    expect(await infoValue(page, 'Platform')).toBe(game.platform);
    expect(await infoValue(page, 'Region')).toBe(game.region || 'Global');
    expect(await infoValue(page, 'Available Languages')).toBe(game.languages.length ? game.languages.join(', ') : 'English, Polish, Russian');
    expect(await infoValue(page, 'PEGI Rating')).toBe(`${game.pegi || 18}+`);
    // The keys-left line shows the real stock of the API (DESIGN §5), not a random number.
    expect(game.stock).toBeGreaterThan(0);
    const keysLeft = game.stock === 1 ? 'There is 1 key left' : `There are ${game.stock} keys left`;
    expect(await page.getByText(keysLeft).isVisible()).toBe(true);
    expect(await page.getByText(`€${game.price.toFixed(2)}`).first().isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'About' }).isVisible()).toBe(true);
    await screenshot(page, 'game-1280');

    await crumbs.getByRole('link', { name: game.platform }).click();
    await page.waitForURL(`**/store?platform=${encodeURIComponent(game.platform)}`);
    await page.goBack();
  });

  it('adds the game to the cart, then shows the quantity control', async () => {
    await page.goto(`${baseUrl}/game/${game._id}`);
    await page.getByRole('button', { name: 'Add to cart', exact: true }).click();
    const quantity = page.getByRole('spinbutton', { name: `Quantity of ${game.title}` });
    await expect.poll(() => quantity.inputValue()).toBe('1');
    await page.getByRole('button', { name: `One more ${game.title}` }).click();
    await expect.poll(() => quantity.inputValue()).toBe('2');
    await page.getByRole('button', { name: `One less ${game.title}` }).click();
    await page.getByRole('button', { name: `One less ${game.title}` }).click();
    // Down to 0: the game leaves the cart and the button comes back.
    await expect.poll(() => page.getByRole('button', { name: 'Add to cart', exact: true }).isVisible()).toBe(true);
  });

  it("'Buy in 1 click' asks a visitor to log in first, leaving the cart alone", async () => {
    await page.goto(`${baseUrl}/game/${game._id}`);
    await page.getByRole('button', { name: 'Buy in 1 click' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Login' }).isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe(`/game/${game._id}`);
    const stored = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '[]'), STORAGE_KEYS.cart);
    expect(stored).toEqual([]);
  });

  it("says 'Game not found' for an unknown id, and 'Back to Store' leads to the store", async () => {
    await page.goto(`${baseUrl}/game/no-such-game`);
    await expect.poll(() => page.getByRole('heading', { name: 'Error' }).isVisible()).toBe(true);
    expect(await page.getByText('Game not found').isVisible()).toBe(true);
    await screenshot(page, 'game-not-found-1280');
    await page.getByRole('button', { name: 'Back to Store' }).click();
    await page.waitForURL(/\/store$/);
  });

  it('has no serious accessibility violations', async () => {
    await page.goto(`${baseUrl}/game/${game._id}`);
    await expect.poll(() => page.getByRole('heading', { level: 1, name: game.title }).isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('fits a 390 px wide phone', async () => {
    const phone = await visitorContextAt(browser, 390, 844);
    const mobile = await phone.newPage();
    await mobile.goto(`${baseUrl}/game/${game._id}`);
    await expect.poll(() => mobile.getByRole('heading', { level: 1, name: game.title }).isVisible()).toBe(true);
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(mobile, 'game-390');
    // Centred, not just "in view": the fixed bottom bar would cover it.
    await mobile.getByRole('button', { name: 'Buy in 1 click' }).evaluate((button) => button.scrollIntoView({ block: 'center' }));
    await screenshot(mobile, 'game-390-purchase');
    expect(await accessibilityViolations(mobile)).toEqual([]);
    await phone.close();
  });
});
