// Buying without an account (issue 29) in a real browser against the real server: a visitor continues
// as a guest from the cart, pays on the test gateway with the order's link, opens the link the receipt
// mails and reveals the key there; later they sign up with that e-mail and find the order and the key
// in their account.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, freshIdentity, latestMail, login, mailedCode } from './accounts.ts';
import { accessibilityViolations, launchBrowser, newVisitorContext, screenshot } from './browser.ts';
import { addToCart, euro, gamesInStock, proceedToCheckout, type ListedGame } from './shopping.ts';

describe('buying as a guest', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let game: ListedGame;
  // (Not 'guest': a username may not start with that reserved word.)
  const guest = freshIdentity('walkin');
  let orderLink = '';
  let revealed = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    context = await newVisitorContext(browser, { viewport: { width: 1280, height: 900 }, bypassCSP: true });
    page = await context.newPage();
    game = (await gamesInStock(baseUrl))[1]!;
  });
  afterAll(async () => {
    await context.close();
    await browser.close();
  });

  it('continues as a guest from the cart and pays with the order link', async () => {
    await addToCart(page, baseUrl, game);
    await proceedToCheckout(page, baseUrl);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Continue as guest' }).click();
    await dialog.getByLabel('Email', { exact: true }).fill(guest.email);
    await dialog.getByLabel('Confirm email').fill(guest.email.toUpperCase());
    await dialog.getByRole('checkbox', { name: /I accept the Terms of Service/ }).check();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'guest-dialog-1280');
    await dialog.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL('**/pay/*?token=*');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('CVC').fill('123');
    await page.getByLabel('Name on card').fill('Guest Player');
    await page.getByRole('button', { name: `Pay ${euro(game.price)}` }).click();
    await page.waitForURL('**/orders/*?token=*');
    await expect.poll(() => page.getByText('Delivered', { exact: true }).first().isVisible(), { timeout: 20_000 }).toBe(true);
  });

  it("opens the receipt's link in a fresh browser and reveals the key there; the mail never carries it", async () => {
    const receipt = await latestMail(baseUrl, guest.email, /your keys are ready/i);
    orderLink = /(https?:\/\/\S+\/orders\/\S+\?token=\S+)/.exec(receipt.text)![1]!;
    const fresh = await newVisitorContext(browser, { viewport: { width: 390, height: 844 }, bypassCSP: true });
    const phone = await fresh.newPage();
    await phone.goto(orderLink.replace(/^https?:\/\/[^/]+/, baseUrl));
    await phone.getByRole('button', { name: `Reveal Key of ${game.title}` }).click();
    await expect.poll(() => phone.locator('code').first().textContent()).toMatch(/^DEMO-/);
    revealed = (await phone.locator('code').first().textContent())!;
    expect(receipt.text).not.toContain(revealed);
    expect(await accessibilityViolations(phone)).toEqual([]);
    await screenshot(phone, 'guest-order-390');
    // A forged link shows no order.
    await phone.goto(`${orderLink.replace(/^https?:\/\/[^/]+/, baseUrl).slice(0, -4)}abcd`);
    await expect.poll(() => phone.getByText(/This order link is not valid or has expired/).isVisible()).toBe(true);
    await fresh.close();
  });

  it('signs up later with that e-mail and finds the order and the key in the account', async () => {
    const password = 'Secret-pass1';
    expect((await call(baseUrl, 'POST', '/api/auth/register', { username: guest.username, email: guest.email, password })).status).toBe(201);
    const code = await mailedCode(baseUrl, guest.email);
    expect((await call(baseUrl, 'POST', '/api/auth/verify-email', { email: guest.email, code })).status).toBe(200);
    const session = await login(baseUrl, guest.email, password);
    expect(session.body.token).toEqual(expect.any(String));
    const library = await call<Array<{ orderId: string; product: { title: string } }>>(baseUrl, 'GET', '/api/purchases', undefined, session.body.token);
    expect(library.body.map((purchase) => purchase.product.title)).toEqual([game.title]);
    const key = await call<{ key: string }>(baseUrl, 'GET', `/api/purchases/${(library.body[0] as unknown as { _id: string })._id}/key`, undefined, session.body.token);
    expect(key.body.key).toBe(revealed);
  });
});
