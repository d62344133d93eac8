// A gift (issue 29) in a real browser against the real server: a customer ticks 'This is a gift' in
// the cart, pays, and the recipient opens the mailed link, reads the message and reveals the key; the
// buyer's library shows the gift as sent, never its key, and then as opened.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createVerifiedUser, freshIdentity, latestMail, signedInContext, type TestAccount } from './accounts.ts';
import { accessibilityViolations, launchBrowser, newVisitorContext, screenshot } from './browser.ts';
import { addToCart, euro, gamesInStock, type ListedGame } from './shopping.ts';

describe('a gift', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let buyer: TestAccount;
  let game: ListedGame;
  const recipient = freshIdentity('friend');

  beforeAll(async () => {
    browser = await launchBrowser();
    buyer = await createVerifiedUser(baseUrl, 'giver');
    context = await signedInContext(browser, baseUrl, buyer, { viewport: { width: 1280, height: 900 }, bypassCSP: true });
    page = await context.newPage();
    game = (await gamesInStock(baseUrl))[2]!;
  });
  afterAll(async () => {
    await context.close();
    await browser.close();
  });

  it("is bought from the cart for someone else's e-mail, with a message", async () => {
    await addToCart(page, baseUrl, game);
    await page.goto(`${baseUrl}/cart`);
    await page.getByRole('checkbox', { name: 'This is a gift' }).check();
    await page.getByLabel('Recipient’s e-mail').fill(recipient.email);
    await page.getByLabel('Recipient’s name').fill('Sam');
    await page.getByLabel('Message (optional)').fill('Happy birthday, Sam!');
    await page.getByRole('checkbox', { name: 'I have read and accept the Terms & Conditions' }).check();
    await screenshot(page, 'gift-cart-1280');
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await page.waitForURL('**/pay/*');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('CVC').fill('123');
    await page.getByLabel('Name on card').fill('Giver Player');
    await page.getByRole('button', { name: `Pay ${euro(game.price)}` }).click();
    await page.waitForURL('**/library?order=*');
    const card = page.getByRole('list', { name: 'Your games' }).getByRole('listitem').filter({ hasText: game.title });
    await expect.poll(() => card.getByText(/^Sent as a gift to/).textContent(), { timeout: 20_000 }).toContain('Sam');
    expect(await card.getByText('Not opened yet').isVisible()).toBe(true);
    expect(await card.getByRole('button', { name: `Reveal Key of ${game.title}` }).count()).toBe(0);
  });

  it("is opened by the recipient from the mail's link, who reveals the key; the buyer sees it opened", async () => {
    const mail = await latestMail(baseUrl, recipient.email, /sent you a game/i);
    expect(mail.text).toContain('Happy birthday, Sam!');
    const link = /(https?:\/\/\S+\/gifts\/\S+\?token=\S+)/.exec(mail.text)![1]!;
    const phoneContext = await newVisitorContext(browser, { viewport: { width: 390, height: 844 }, bypassCSP: true });
    const phone = await phoneContext.newPage();
    await phone.goto(link.replace(/^https?:\/\/[^/]+/, baseUrl));
    await expect.poll(() => phone.getByText('Happy birthday, Sam!').isVisible()).toBe(true);
    expect(await phone.getByText(euro(game.price)).count()).toBe(0);
    await phone.getByRole('button', { name: `Reveal Key of ${game.title}` }).click();
    await expect.poll(() => phone.locator('code').first().textContent()).toMatch(/^DEMO-/);
    const key = (await phone.locator('code').first().textContent())!;
    expect(mail.text).not.toContain(key);
    expect(await accessibilityViolations(phone)).toEqual([]);
    await screenshot(phone, 'gift-page-390');
    await phoneContext.close();

    await page.reload();
    const card = page.getByRole('list', { name: 'Your games' }).getByRole('listitem').filter({ hasText: game.title });
    await expect.poll(() => card.getByText(/^Opened/).isVisible()).toBe(true);
    expect(await page.content()).not.toContain(key);
    await screenshot(page, 'gift-sent-library-1280');
  });
});
