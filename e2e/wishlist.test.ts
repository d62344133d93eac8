// The wishlist in a real browser (issue 31), against a store whose catalogue comes from a fake of the
// Kinguin API on loopback, synced every 2 seconds: a visitor wishes a game from the store and signs in,
// and the list is kept in the account; the supplier lowers the price, the bell shows the alert and the
// mail arrives with a one-click unsubscribe (RFC 8058) that works; the game page charts the price; a US
// browser is warned about a European key.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createVerifiedUser, mailsTo, type TestAccount } from './accounts.ts';
import { accessibilityViolations, launchBrowser, screenshot, visitorContextAt } from './browser.ts';
import { euro, gamesInStock, type ListedGame } from './shopping.ts';
import { startStore, type StoreProcess } from './store-process.ts';
import { FakeKinguin, kinguinProduct } from '../apps/server/src/test/fake-kinguin.ts';

describe('the wishlist', () => {
  let store: StoreProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let shopper: TestAccount;
  let game: ListedGame;
  let supplier: FakeKinguin;

  beforeAll(async () => {
    supplier = await new FakeKinguin().start();
    // Global keys, and every third one for Europe.
    supplier.products = Array.from({ length: 12 }, (_, n) => kinguinProduct(n + 1, { regionId: n % 3 === 0 ? 1 : 3 }));
    store = await startStore({
      SUPPLIER: 'kinguin',
      SUPPLIER_API_URL: supplier.url,
      SUPPLIER_API_KEY: supplier.apiKey,
      SUPPLIER_SYNC_CRON: '*/2 * * * * *',
    });
    shopper = await createVerifiedUser(store.baseUrl, 'wisher');
    game = (await gamesInStock(store.baseUrl))[0]!;
    browser = await launchBrowser();
    context = await visitorContextAt(browser, 1280, 900);
    page = await context.newPage();
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await store?.stop();
    await supplier?.stop();
  });

  it("keeps a visitor's wish, and joins it to the account at sign-in", async () => {
    await page.goto(`${store.baseUrl}/store`);
    const heart = page.getByRole('button', { name: `Wishlist: ${game.title}` }).first();
    expect(await heart.getAttribute('aria-pressed')).toBe('false');
    await heart.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => page.getByRole('link', { name: 'Wishlist, 1 game' }).count()).toBe(1);

    await page.getByRole('link', { name: 'Wishlist, 1 game' }).click();
    await expect.poll(() => page.getByRole('heading', { name: game.title }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Log in' }).click();
    const login = page.getByRole('dialog', { name: 'Login' });
    await login.getByLabel('Email').fill(shopper.email);
    await login.getByLabel('Password').fill(shopper.password);
    await login.getByRole('button', { name: 'Login' }).click();
    await expect.poll(() => page.getByText(/^When added: /).count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByText(`When added: ${euro(game.price)}`).isVisible()).toBe(true);
    const listed = await call<Array<{ gameId: string }>>(store.baseUrl, 'GET', '/api/wishlist', undefined, (await page.evaluate(() => localStorage.getItem('keystore.token')))!);
    expect(listed.body.map((item) => item.gameId)).toEqual([game._id]);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'wishlist-1280');
  });

  it('shows a price drop in the supplier in the bell, and mails it with a one-click unsubscribe', async () => {
    // The supplier's price a fifth lower, stamped now: the next sync (2 s) brings it, with the markup.
    const product = supplier.products.find((candidate) => candidate.name === game.title)!;
    product.price = Math.round(Number(product.price) * 80) / 100;
    product.updatedAt = new Date().toISOString();
    await expect.poll(async () => ((await (await fetch(`${store.baseUrl}/api/games/${game._id}`)).json()) as ListedGame).price, { timeout: 20_000 }).toBeLessThan(game.price * 0.9);
    const lower = ((await (await fetch(`${store.baseUrl}/api/games/${game._id}`)).json()) as ListedGame).price;

    // The alert job runs every 10 s on each instance (the sync every 2 s here): the alert is there within that.
    const token = (await page.evaluate(() => localStorage.getItem('keystore.token')))!;
    const alertTitle = `Price drop: ${game.title}`;
    await expect
      .poll(async () => (await call<Array<{ title: string }>>(store.baseUrl, 'GET', '/api/notifications', undefined, token)).body.map((note) => note.title), { timeout: 45_000 })
      .toContain(alertTitle);
    await page.reload();
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await expect.poll(() => bell.getAttribute('aria-label'), { timeout: 15_000 }).toMatch(/^Notifications, [1-9]\d* unread$/);
    await bell.click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Notifications' }).getByText(alertTitle).isVisible()).toBe(true);

    const mail = (await mailsTo(store.baseUrl, shopper.email)).find((message) => message.subject.includes('is now'));
    expect(mail?.text).toContain(`now ${euro(lower)} (was ${euro(game.price)})`);
    const headers = mail!.headers!;
    expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const oneClick = /^<(.+)>$/.exec(headers['List-Unsubscribe']!)![1]!;
    // What a mail client does with the header: a POST of the one-click form, no session.
    const answer = await fetch(oneClick, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(answer.status).toBe(200);

    await page.keyboard.press('Escape');
    await page.goto(`${store.baseUrl}/profile`);
    await expect.poll(() => page.getByRole('switch', { name: /E-mail me when a wished game/ }).isChecked(), { timeout: 10_000 }).toBe(false);
  });

  it("charts the game's price, with the 30-day lowest price of a discounted game and how to activate it", async () => {
    await page.goto(`${store.baseUrl}/game/${game._id}`);
    const chart = page.getByRole('img', { name: /price over the last 90 days/ });
    await expect.poll(() => chart.count(), { timeout: 10_000 }).toBe(1);
    // The price fell from the feed's to the owner's a moment ago: the feed's was the lowest before it.
    expect(await chart.getAttribute('aria-label')).toContain(`from ${euro(game.price)}`);
    const listed = (await (await fetch(`${store.baseUrl}/api/games/${game._id}`)).json()) as { price: number; originalPrice: number | null };
    if (listed.originalPrice !== null && listed.originalPrice > listed.price) {
      expect(await page.getByText(`Lowest price in the last 30 days: ${euro(game.price)}`).isVisible()).toBe(true);
    }
    expect(await page.getByRole('heading', { name: /^How to activate on / }).isVisible()).toBe(true);
    await page.getByRole('heading', { name: 'Price history' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'game-price-history-1280');
  });

  it('warns a US visitor before the cart, and in it, that a European key may not activate', async () => {
    const european = (await gamesInStock(store.baseUrl)).find((candidate) => (candidate as ListedGame & { region: string }).region === 'Europe')!;
    const us = await visitorContextAt(browser, 1280, 900);
    await us.setExtraHTTPHeaders({ 'Accept-Language': 'en-US,en;q=0.9' });
    const visitor = await us.newPage();
    const warning = 'This key works in Europe only. It may not activate in your region (US).';
    await visitor.goto(`${store.baseUrl}/game/${european._id}`);
    await expect.poll(() => visitor.getByText('Works in: Europe').isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => visitor.getByRole('note').textContent()).toBe(warning);
    await visitor.getByRole('button', { name: 'Add to cart', exact: true }).click();
    await visitor.goto(`${store.baseUrl}/cart`);
    await expect.poll(() => visitor.getByRole('note').first().textContent(), { timeout: 10_000 }).toBe(warning);
    await screenshot(visitor, 'cart-region-warning-1280');
    await us.close();
  });
});
