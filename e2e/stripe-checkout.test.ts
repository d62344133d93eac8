// Paying with Stripe in a real browser. A store of its own (PAYMENT_PROVIDER=stripe) talks to the
// fake Stripe, whose hosted Checkout page the buyer is sent to: Pay tells the store through the
// signed webhook and brings the buyer back to the library with the key; Cancel brings them back to
// the store with the order unpaid. No bypassCSP here: the way to Stripe and back must pass the store's CSP.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@keystore/contract';
import { FakeStripe } from '../apps/server/src/test/fake-stripe.ts';
import { createVerifiedUser, signedInContext, type TestAccount } from './accounts.ts';
import { launchBrowser, screenshot } from './browser.ts';
import { addToCart, euro, gamesInStock, proceedToCheckout, type ListedGame } from './shopping.ts';
import { startStore, type StoreProcess } from './store-process.ts';

describe('Stripe checkout', () => {
  const fake = new FakeStripe();
  let store: StoreProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let account: TestAccount;
  let games: ListedGame[];
  const cspViolations: string[] = [];

  beforeAll(async () => {
    await fake.start();
    store = await startStore(fake.env());
    fake.webhookUrl = `${store.baseUrl}/api/payments/stripe/webhook`;
    browser = await launchBrowser();
    account = await createVerifiedUser(store.baseUrl, 'stripe');
    context = await signedInContext(browser, store.baseUrl, account, { viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    games = await gamesInStock(store.baseUrl);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await store?.stop();
    await fake.stop();
  });

  /** Checks the cart out and answers once the browser is on the fake Stripe's page. */
  async function checkOutToStripe(game: ListedGame): Promise<void> {
    await addToCart(page, store.baseUrl, game);
    await proceedToCheckout(page, store.baseUrl);
    await page.waitForURL((url) => url.origin === fake.url && url.pathname.startsWith('/c/pay/cs_test_'));
  }

  const orderOf = async (orderId: string): Promise<Order> =>
    (await fetch(`${store.baseUrl}/api/orders/${orderId}`, { headers: { Authorization: `Bearer ${account.token}` } }).then((answer) => answer.json())) as Order;

  it('pays on the Stripe page and comes back to the library with the key', async () => {
    const game = games[0]!;
    await checkOutToStripe(game);
    const session = fake.sessions.get(new URL(page.url()).pathname.split('/').at(-1)!)!;
    expect(session.amount_total).toBe(Math.round(game.price * 100));
    expect(await page.getByText(euro(game.price), { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('list', { name: 'Items' }).getByText(game.title).isVisible()).toBe(true);
    await screenshot(page, 'stripe-checkout-1280');

    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((url) => url.origin === store.baseUrl && url.pathname === '/library');
    const orderId = new URL(page.url()).searchParams.get('order')!;
    expect(session.client_reference_id).toBe(orderId);
    const card = page.getByRole('list', { name: 'Your games' }).getByRole('listitem').filter({ hasText: game.title });
    await expect.poll(() => card.count(), { timeout: 20_000 }).toBe(1);
    await card.getByRole('button', { name: `Reveal Key of ${game.title}` }).click();
    await expect.poll(() => card.locator('code').textContent()).toMatch(/^DEMO-/);
    expect(await orderOf(orderId)).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered', paymentProvider: 'stripe' });
    // The bought game left the cart, which held nothing else.
    expect(await page.evaluate(() => Object.entries(localStorage).find(([key]) => key.includes('cart'))?.[1] ?? '[]')).toBe('[]');
    await screenshot(page, 'stripe-library-1280');
    expect(cspViolations).toEqual([]);
  });

  it('cancels on the Stripe page and comes back to the store, the order unpaid until the customer tries again', async () => {
    const game = games[1]!;
    await checkOutToStripe(game);
    const session = fake.sessions.get(new URL(page.url()).pathname.split('/').at(-1)!)!;

    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.origin === store.baseUrl && url.pathname.startsWith('/pay/'));
    const orderId = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
    expect(session.client_reference_id).toBe(orderId);
    await page.getByRole('heading', { level: 1, name: 'Payment cancelled' }).waitFor();
    expect(await page.getByText('You cancelled the payment, so nothing was charged.', { exact: false }).isVisible()).toBe(true);
    expect(await page.getByRole('list', { name: 'Products in your order' }).getByText(game.title).isVisible()).toBe(true);
    expect(await page.getByLabel('Card number').count()).toBe(0);
    await screenshot(page, 'stripe-cancelled-1280');
    expect(await orderOf(orderId)).toMatchObject({ status: 'Awaiting payment', paidAt: null });
    expect(session.status).toBe('open');

    // Trying again goes back to the same Checkout Session, which still pays the same order.
    const sessions = fake.sessions.size;
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.waitForURL(session.url);
    expect(fake.sessions.size).toBe(sessions);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((url) => url.origin === store.baseUrl && url.pathname === '/library');
    expect(new URL(page.url()).searchParams.get('order')).toBe(orderId);
    expect(await orderOf(orderId)).toMatchObject({ status: 'Paid' });
    expect(cspViolations).toEqual([]);
  });
});
