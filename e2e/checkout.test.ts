// The buying journey of issue 5 in a real browser against the real server: cart → order → the test
// gateway's card form (a declined card, then a good one) → the library with the key → the profile.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createVerifiedUser, signedInContext, type TestAccount } from './accounts.ts';
import { accessibilityViolations, launchBrowser, screenshot } from './browser.ts';
import { addToCart, euro, gamesInStock, proceedToCheckout, type ListedGame } from './shopping.ts';

async function payWith(page: Page, cardNumber: string, amount: number) {
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry (MM/YY)').fill('12/39');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Ada Player');
  await page.getByRole('button', { name: `Pay ${euro(amount)}` }).click();
}

describe('checkout', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let account: TestAccount;
  let game: ListedGame;

  beforeAll(async () => {
    browser = await launchBrowser();
    account = await createVerifiedUser(baseUrl, 'buyer');
    // bypassCSP: axe-core is injected as an inline script.
    context = await signedInContext(browser, baseUrl, account, { viewport: { width: 1280, height: 900 }, bypassCSP: true });
    page = await context.newPage();
    game = (await gamesInStock(baseUrl))[0]!;
  });
  afterAll(async () => {
    await context.close();
    await browser.close();
  });

  it('places the order from the cart and opens the payment page', async () => {
    await addToCart(page, baseUrl, game);
    await proceedToCheckout(page, baseUrl);
    await page.waitForURL('**/pay/*');
    await expect.poll(() => page.getByRole('button', { name: `Pay ${euro(game.price)}` }).isVisible()).toBe(true);
    expect(await page.getByRole('list', { name: 'Products in your order' }).getByText(game.title).isVisible()).toBe(true);
    expect(await page.getByText('4242 4242 4242 4242').isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'pay-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'pay-390');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('shows a declined card, then pays with the good card and opens the library', async () => {
    await payWith(page, '4000 0000 0000 0002', game.price);
    const alert = page.getByRole('alert').filter({ hasText: 'declined' });
    await expect.poll(() => alert.textContent()).toBe('Your card was declined.');
    expect(new URL(page.url()).pathname).toMatch(/^\/pay\//);
    await screenshot(page, 'pay-declined-1280');

    await payWith(page, '4242 4242 4242 4242', game.price);
    await page.waitForURL('**/library?order=*');
    const card = page.getByRole('list', { name: 'Your games' }).getByRole('listitem').filter({ hasText: game.title });
    await expect.poll(() => card.count(), { timeout: 20_000 }).toBe(1);
    // The bought game left the cart, which held nothing else.
    expect(await page.evaluate(() => Object.entries(localStorage).find(([key]) => key.includes('cart'))?.[1] ?? '[]')).toBe('[]');

    await card.getByRole('button', { name: `Reveal Key of ${game.title}` }).click();
    await expect.poll(() => card.locator('code').textContent()).toMatch(/^DEMO-/);
    expect(await card.getByText('Product Key:').isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'library-keys-1280');
  });

  it('lists the order in the profile as Paid and Delivered with its real total', async () => {
    await page.goto(`${baseUrl}/profile`);
    const history = page.getByRole('region', { name: 'Order history' });
    const paid = history.getByRole('listitem').filter({ hasText: 'Paid' });
    await expect.poll(() => paid.count()).toBe(1);
    expect(await paid.getByText('Delivered', { exact: true }).isVisible()).toBe(true);
    expect(await paid.getByText(euro(game.price)).isVisible()).toBe(true);
    // The declined first attempt is an order of its own.
    expect(await history.getByRole('listitem').filter({ hasText: 'Declined' }).count()).toBe(1);

    await paid.getByRole('button', { name: /^Details/ }).click();
    const details = page.getByRole('dialog', { name: 'Order details' });
    await expect.poll(() => details.getByText('Paid', { exact: true }).isVisible()).toBe(true);
    expect(await details.getByText('Delivered', { exact: true }).isVisible()).toBe(true);
    expect(await details.getByRole('link', { name: 'Your keys are in the Library' }).getAttribute('href')).toBe('/library');
  });

  it("gives the keys back at once with 'Cancel order', and keeps the game in the cart", async () => {
    const other = (await gamesInStock(baseUrl))[1]!;
    const stockOf = async () => ((await (await fetch(`${baseUrl}/api/games/${other._id}`)).json()) as { stock: number }).stock;
    const before = await stockOf();
    await addToCart(page, baseUrl, other);
    await proceedToCheckout(page, baseUrl);
    await page.waitForURL('**/pay/*');
    await expect.poll(() => stockOf()).toBe(before - 1);
    const cancel = page.getByRole('button', { name: 'Cancel order' });
    await expect.poll(() => cancel.isVisible()).toBe(true);
    await screenshot(page, 'pay-cancel-1280');
    await cancel.click();
    await page.waitForURL('**/cart');
    expect(await stockOf()).toBe(before);
    // The cart page's code and its games load after the navigation: wait for them to show.
    await expect.poll(() => page.getByText(other.title).first().isVisible()).toBe(true);
    await screenshot(page, 'cart-after-cancel-1280');
  });
});
