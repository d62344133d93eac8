import type { Browser, BrowserContext, Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { accessibilityViolations, launchBrowser, newVisitorContext, screenshot } from './browser.ts';

interface ListedGame {
  _id: string;
  title: string;
  platform: string;
  price: number;
  originalPrice: number | null;
  stock: number;
}

/** Euro with two decimals, as the cart shows it. */
const euro = (amount: number) => `€${amount.toFixed(2)}`;

/** The value beside a term of the order summary ('Items', 'Total'). */
function summaryValue(page: Page, term: string): Promise<string | null> {
  return page.getByRole('complementary', { name: 'Order summary' }).locator('dt', { hasText: term }).locator('xpath=following-sibling::dd').textContent();
}

describe('the cart', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let sale: ListedGame;
  let plain: ListedGame;

  beforeAll(async () => {
    browser = await launchBrowser();
    // bypassCSP: axe-core is injected as an inline script. Both tabs share this context's localStorage.
    context = await newVisitorContext(browser, { viewport: { width: 1280, height: 900 }, bypassCSP: true });
    page = await context.newPage();
    const { items } = (await fetch(`${baseUrl}/api/games?pageSize=100`).then((response) => response.json())) as { items: ListedGame[] };
    sale = items.find((game) => game.originalPrice !== null && game.originalPrice > game.price && game.stock > 5)!;
    plain = items.find((game) => game.originalPrice === null && game.stock > 5 && game.title !== sale.title)!;
  });
  afterAll(() => browser.close());

  it('starts empty, with a way back to the store', async () => {
    await page.goto(`${baseUrl}/cart`);
    const back = page.getByRole('link', { name: 'Continue Shopping' });
    await expect.poll(() => back.isVisible()).toBe(true);
    expect(await back.getAttribute('href')).toBe('/store');
  });

  it('takes games added in the store, with HOT SALE for a discount, and totals them in euro', async () => {
    for (const game of [sale, plain]) {
      await page.goto(`${baseUrl}/store?search=${encodeURIComponent(game.title)}&platform=${encodeURIComponent(game.platform)}`);
      // A title can exist in several editions: add the card of this very game.
      const card = page.getByRole('article').filter({ has: page.locator(`a[href="/game/${game._id}"]`) });
      await card.getByRole('button', { name: 'to cart' }).click();
      await expect.poll(() => card.getByRole('spinbutton').inputValue()).toBe('1');
    }

    await page.goto(`${baseUrl}/cart`);
    const lines = page.getByRole('list', { name: 'Products in your cart' }).getByRole('listitem');
    await expect.poll(() => lines.count()).toBe(2);
    const saleLine = lines.filter({ hasText: sale.title });
    const plainLine = lines.filter({ hasText: plain.title });
    expect(await saleLine.getByText('HOT SALE').isVisible()).toBe(true);
    expect(await saleLine.locator('s').textContent()).toContain(euro(sale.originalPrice!));
    expect(await saleLine.textContent()).toContain(euro(sale.price));
    expect(await plainLine.getByText('HOT SALE').count()).toBe(0);
    expect(await plainLine.getByText(plain.platform, { exact: true }).isVisible()).toBe(true);
    expect(await summaryValue(page, 'Items')).toBe('2');
    expect(await summaryValue(page, 'Total')).toBe(euro(sale.price + plain.price));
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'cart-1280');
  });

  it('changes quantities with a minimum of 1 and removes a line', async () => {
    await page.getByRole('button', { name: `One more ${sale.title}` }).click();
    await page.getByRole('button', { name: `One more ${sale.title}` }).click();
    await expect.poll(() => summaryValue(page, 'Items')).toBe('4');
    expect(await summaryValue(page, 'Total')).toBe(euro(Math.round(sale.price * 300 + plain.price * 100) / 100));
    await page.getByRole('button', { name: `One less ${sale.title}` }).click();
    await expect.poll(() => summaryValue(page, 'Items')).toBe('3');

    // At 1 the minus is disabled and typing 0 changes nothing.
    expect(await page.getByRole('button', { name: `One less ${plain.title}` }).isDisabled()).toBe(true);
    const field = page.getByRole('spinbutton', { name: `Quantity of ${plain.title}` });
    await field.fill('0');
    await field.blur();
    expect(await field.inputValue()).toBe('1');
    expect(await summaryValue(page, 'Items')).toBe('3');

    await field.fill('5');
    await expect.poll(() => summaryValue(page, 'Items')).toBe('7');
    expect(await summaryValue(page, 'Total')).toBe(euro(Math.round(sale.price * 200 + plain.price * 500) / 100));

    await page.getByRole('button', { name: `Remove ${plain.title}` }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Products in your cart' }).getByRole('listitem').count()).toBe(1);
    expect(await summaryValue(page, 'Items')).toBe('2');
    expect(await summaryValue(page, 'Total')).toBe(euro(Math.round(sale.price * 200) / 100));
  });

  it('alerts until the terms are accepted, then asks a visitor to log in, keeping the cart', async () => {
    const proceed = page.getByRole('button', { name: 'Proceed to Checkout' });
    expect(await proceed.getAttribute('aria-disabled')).toBe('true');
    expect(await page.getByText('You will be redirected to the payment page.').isVisible()).toBe(true);
    const messages: string[] = [];
    const onDialog = (dialog: Dialog) => {
      messages.push(dialog.message());
      void dialog.accept();
    };
    page.on('dialog', onDialog);
    // It only looks disabled (aria-disabled), so it stays reachable: by keyboard and by a click.
    await proceed.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => messages).toEqual(['Please accept the Terms & Conditions']);
    // Playwright's own actionability check treats aria-disabled as disabled; a person can still click it.
    await proceed.click({ force: true });
    await expect.poll(() => messages).toHaveLength(2);
    expect(messages[1]).toBe('Please accept the Terms & Conditions');
    page.off('dialog', onDialog);
    expect(new URL(page.url()).pathname).toBe('/cart');

    expect(await page.getByRole('complementary', { name: 'Order summary' }).getByRole('link', { name: 'Terms & Conditions' }).getAttribute('href')).toBe('/terms');
    await page.getByRole('checkbox', { name: 'I have read and accept the Terms & Conditions' }).check();
    expect(await proceed.getAttribute('aria-disabled')).toBe('false');
    await proceed.click();
    // Paying needs an account (checkout.test.ts follows a customer through it).
    const login = page.getByRole('dialog', { name: 'Login' });
    await expect.poll(() => login.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => login.isVisible()).toBe(false);
    expect(new URL(page.url()).pathname).toBe('/cart');
    expect(await summaryValue(page, 'Items')).toBe('2');
  });

  it('shows a change made in one tab in the other', async () => {
    const other = await context.newPage();
    await other.goto(`${baseUrl}/cart`);
    await expect.poll(() => summaryValue(other, 'Items')).toBe('2');

    await page.getByRole('button', { name: `One more ${sale.title}` }).click();
    await expect.poll(() => summaryValue(other, 'Items')).toBe('3');
    expect(await summaryValue(other, 'Total')).toBe(euro(Math.round(sale.price * 300) / 100));

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'cart-390');

    await page.getByRole('button', { name: 'Remove all products' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Continue Shopping' }).isVisible()).toBe(true);
    await expect.poll(() => other.getByRole('link', { name: 'Continue Shopping' }).isVisible()).toBe(true);
    await screenshot(page, 'cart-empty-390');
    await other.close();
  });
});
