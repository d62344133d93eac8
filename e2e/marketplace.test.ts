// The marketplace journey (issue 23): a customer applies to sell from the profile; the admin approves the
// seller and sets its hold to 0 days; the seller offers a game below the house's price, sees what buyers
// will pay as it types, and uploads 3 keys; a shopper sees "Sold by …" on the game page, buys one and
// reveals one of those keys (never in the receipt mail); the seller's sale becomes available (the release
// job runs every 2 s here: the test clock); the admin runs the payouts and marks the seller's paid, the
// trial balance stays at zero, and the seller sees the payout paid. This journey starts its own store.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, createVerifiedUser, mailsTo, signedInContext, uniqueSuffix, type TestAccount } from './accounts.ts';
import { accessibilityViolations, launchBrowser, screenshot } from './browser.ts';
import { euro, gamesInStock, proceedToCheckout, type ListedGame } from './shopping.ts';
import { startStore, type StoreProcess } from './store-process.ts';

const ADMIN = { email: 'owner@example.org', password: 'Owner-pass1' };
const KEYS = ['MKT-AAAA-0001', 'MKT-AAAA-0002', 'MKT-AAAA-0003'];
const BANK_REFERENCE = 'SEPA-2039-0001';

/** The store's default commission (10 %, rounded half up to the cent) on a net price in cents. */
const commissionCents = (netCents: number) => Math.floor((netCents * 1000 + 5000) / 10000);

describe('the marketplace', () => {
  let store: StoreProcess;
  let browser: Browser;
  let admin: string;
  let seller: TestAccount;
  let shopper: TestAccount;
  let game: ListedGame;
  const sellerName = `Mkt Keys ${uniqueSuffix()}`;
  /** The seller's net price, the commission and what buyers pay, in cents. */
  let netCents: number;
  let priceCents: number;
  const contexts: BrowserContext[] = [];

  /**
   * A signed-in tab. A shopper comes from an address of its own (X-Forwarded-For, trusted here): sharing
   * one with a seller's account is what the risk desk holds as cashing out (issue 29).
   */
  async function pageAs(token: string, width = 1280, height = 900, address?: string): Promise<Page> {
    const context = await signedInContext(browser, store.baseUrl, { token }, { viewport: { width, height }, bypassCSP: true, ...(address && { extraHTTPHeaders: { 'x-forwarded-for': address } }) });
    contexts.push(context);
    return context.newPage();
  }

  /** Opens a tab of the seller area (its page is loaded afresh, so the figures are the server's now). */
  async function sellerTab(page: Page, tab: 'Offers' | 'Keys' | 'Sales & payouts'): Promise<Locator> {
    await page.goto(`${store.baseUrl}/seller`);
    await page.getByRole('tab', { name: tab, exact: true }).click();
    return page.getByRole('tabpanel');
  }

  /** The figure a seller's account shows under `term` ("Available", "On hold", …). */
  const accountFigure = (page: Page, term: string) =>
    page.locator('dl[aria-label="Your seller account"] > div').filter({ has: page.getByText(term, { exact: true }) }).locator('dd');

  /** Closes the toasts that would cover the page's top right in a screenshot. */
  async function dismissToasts(page: Page): Promise<void> {
    const close = page.getByRole('region', { name: 'Messages' }).getByRole('button', { name: 'Dismiss notification' });
    // A toast may leave by itself meanwhile (its timer): then there is nothing to click.
    for (let tries = 0; (await close.count()) > 0 && tries < 10; tries += 1) await close.first().click({ timeout: 1000 }).catch(() => undefined);
  }

  beforeAll(async () => {
    store = await startStore({
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      // The test clock: held sales are released every 2 s instead of every minute.
      LEDGER_RELEASE_CRON: '*/2 * * * * *',
      // One small sale is enough for a payout.
      PAYOUT_MINIMUM: '0',
    });
    browser = await launchBrowser();
    admin = await adminToken(store.baseUrl, ADMIN);
    seller = await createVerifiedUser(store.baseUrl, 'seller');
    shopper = await createVerifiedUser(store.baseUrl, 'shopper');
    // A game of a few euros at least, so half its price (plus the commission) is well below the house's.
    game = (await gamesInStock(store.baseUrl)).find((candidate) => candidate.price >= 2)!;
    netCents = Math.floor(game.price * 50);
    priceCents = netCents + commissionCents(netCents);
    expect(priceCents).toBeLessThan(Math.round(game.price * 100));
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
    await store?.stop();
  });

  it('lets a customer apply to sell from the profile', async () => {
    const page = await pageAs(seller.token);
    await page.goto(`${store.baseUrl}/profile`);
    await page.getByRole('link', { name: 'Sell on Keystore' }).click();
    await page.waitForURL('**/seller');
    await expect.poll(() => page.getByRole('heading', { level: 2, name: 'Apply to sell' }).isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByLabel('Seller name').fill(sellerName);
    await page.getByLabel('Contact e-mail').fill(seller.email);
    await page.getByLabel('Country (two-letter code)').fill('de');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Application received' }).isVisible()).toBe(true);
    expect(await page.getByText(`Thank you, ${sellerName}.`).isVisible()).toBe(true);
  });

  it('lets the admin approve the seller and hold its money 0 days', async () => {
    const page = await pageAs(admin);
    await page.goto(`${store.baseUrl}/`);
    await page.getByRole('link', { name: 'Back office', exact: true }).first().click();
    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Sellers' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Sellers' }).isVisible()).toBe(true);
    const row = page.getByRole('row').filter({ hasText: sellerName });
    await expect.poll(() => row.getByText('Pending', { exact: true }).isVisible()).toBe(true);
    expect(await row.getByText('(store default)').isVisible()).toBe(true);

    await page.getByRole('button', { name: `Approve ${sellerName}` }).click();
    const approve = page.getByRole('dialog', { name: `Approve ${sellerName}?` });
    await approve.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => row.getByText('Active', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => approve.isVisible()).toBe(false);

    await page.getByRole('button', { name: `Edit terms of ${sellerName}` }).click();
    const terms = page.getByRole('dialog', { name: `Terms of ${sellerName}` });
    await terms.getByLabel(/Days a sale’s money is held/).fill('0');
    await terms.getByRole('button', { name: 'Review' }).click();
    const confirm = page.getByRole('dialog', { name: `Change the terms of ${sellerName}?` });
    await expect.poll(() => confirm.getByText('Money held 0 days after a sale.').isVisible()).toBe(true);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => confirm.isVisible()).toBe(false);
    // Hold days is the 5th column (after the row's heading cell: Status, Contact, Commission, Hold days).
    await expect.poll(() => row.getByRole('cell').nth(3).textContent()).toBe('0');
    expect(await accessibilityViolations(page)).toEqual([]);
    // Back to the table's start (Edit terms scrolled it sideways) and without the toasts, as a person would see it.
    await row.getByRole('rowheader').evaluate((element) => element.scrollIntoView({ block: 'nearest', inline: 'start' }));
    await dismissToasts(page);
    await screenshot(page, 'marketplace-admin-sellers-1280');
  });

  it('lets the seller offer a game below the house’s price, seeing what buyers pay, and upload 3 keys', async () => {
    const page = await pageAs(seller.token);
    const offers = await sellerTab(page, 'Offers');
    await offers.getByLabel('Game').fill(game.title);
    await offers.getByRole('list', { name: 'Games found' }).getByRole('button', { name: `${game.title} · ${game.platform}`, exact: true }).click();
    await expect.poll(() => offers.getByText(`Chosen: ${game.title} (${game.platform})`).isVisible()).toBe(true);
    await offers.getByLabel('Your net price per key (€)').fill((netCents / 100).toFixed(2));
    // What buyers will pay shows as the price is typed, before the offer is saved.
    const preview = `Buyers pay ${euro(priceCents / 100)} (commission ${euro(commissionCents(netCents) / 100)})`;
    await expect.poll(() => offers.getByText(preview).isVisible()).toBe(true);
    await offers.getByRole('button', { name: 'Add offer' }).click();
    const offerRow = offers.getByRole('region', { name: 'Your offers' }).getByRole('row').filter({ hasText: game.title });
    await expect.poll(() => offerRow.getByText(euro(priceCents / 100), { exact: true }).isVisible()).toBe(true);
    expect(await offerRow.getByText('Active', { exact: true }).isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'marketplace-seller-offers-1280');

    await page.getByRole('tab', { name: 'Keys', exact: true }).click();
    const keys = page.getByRole('tabpanel');
    await expect.poll(() => keys.getByLabel('Offer').inputValue()).not.toBe('');
    await keys.getByLabel('Keys, one a line').fill(KEYS.join('\n'));
    await keys.getByRole('button', { name: 'Upload keys' }).click();
    await expect.poll(() => keys.getByRole('status').filter({ hasText: 'added' }).textContent()).toBe('3 added · 0 duplicates · 0 invalid');
    const keyRows = keys.getByRole('region', { name: 'Keys of the offer' }).getByRole('row').filter({ hasText: 'Available' });
    await expect.poll(() => keyRows.count()).toBe(3);
    // The seller sees its keys masked, never whole.
    for (const key of KEYS) expect(await page.content()).not.toContain(key);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'marketplace-seller-keys-1280');
  });

  it('sells the seller’s key to a shopper, who reveals it in the library; the receipt mail holds no key', async () => {
    const page = await pageAs(shopper.token, 1280, 900, '198.51.100.50');
    await page.goto(`${store.baseUrl}/game/${game._id}`);
    const soldBy = page.getByText(`Sold by ${sellerName}`);
    await expect.poll(() => soldBy.isVisible()).toBe(true);
    const others = page.getByRole('button', { name: `1 other offer from ${euro(game.price)}` });
    expect(await others.isVisible()).toBe(true);
    // The page's price is the best offer's: the seller's.
    expect(await page.locator('p').filter({ hasText: `Price: ${euro(priceCents / 100)}` }).count()).toBe(1);
    // The other offers (the house's) show only when asked for.
    const otherOffers = page.getByRole('list', { name: 'Other offers' });
    expect(await otherOffers.isVisible()).toBe(false);
    await others.click();
    await expect.poll(() => otherOffers.getByText('Keystore', { exact: true }).isVisible()).toBe(true);
    expect(await others.getAttribute('aria-expanded')).toBe('true');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'marketplace-game-offers-open-1280');
    await others.click();
    await expect.poll(() => otherOffers.isVisible()).toBe(false);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'marketplace-game-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await soldBy.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'marketplace-game-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole('button', { name: 'Add to cart', exact: true }).click();
    await expect.poll(() => page.getByRole('spinbutton', { name: `Quantity of ${game.title}` }).isVisible()).toBe(true);
    await proceedToCheckout(page, store.baseUrl);
    await page.waitForURL('**/pay/*');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('CVC').fill('123');
    await page.getByLabel('Name on card').fill('Ada Player');
    await page.getByRole('button', { name: `Pay ${euro(priceCents / 100)}` }).click();
    await page.waitForURL('**/library?order=*');
    const card = page.getByRole('list', { name: 'Your games' }).getByRole('listitem').filter({ hasText: game.title });
    await expect.poll(() => card.count(), { timeout: 20_000 }).toBe(1);
    await card.getByRole('button', { name: `Reveal Key of ${game.title}` }).click();
    await expect.poll(() => card.locator('code').textContent()).toMatch(/^MKT-/);
    const key = (await card.locator('code').textContent())!;
    expect(KEYS).toContain(key);

    // The receipt links to the library; no mail to the shopper carries the key.
    await expect.poll(async () => (await mailsTo(store.baseUrl, shopper.email)).some((mail) => /keys are ready/i.test(mail.subject))).toBe(true);
    for (const mail of await mailsTo(store.baseUrl, shopper.email)) {
      expect(mail.text).not.toContain(key);
      expect(mail.html).not.toContain(key);
    }
  });

  it('shows the seller the sale, available once the hold of 0 days is over', async () => {
    const page = await pageAs(seller.token);
    const net = euro(netCents / 100);
    const sales = page.getByRole('region', { name: 'Sales', exact: true });
    // The release job runs every 2 s: the page, loaded again, shows the sale's money available.
    await expect
      .poll(
        async () => {
          await sellerTab(page, 'Sales & payouts');
          await sales.or(page.getByText('No sales yet.')).first().waitFor({ timeout: 5000 });
          return (await sales.getByRole('row').filter({ hasText: game.title }).allTextContents()).join(' ');
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toContain('available');
    const sale = sales.getByRole('row').filter({ hasText: game.title });
    expect(await sale.getByText(euro(priceCents / 100), { exact: true }).isVisible()).toBe(true);
    expect(await sale.getByText(net, { exact: true }).isVisible()).toBe(true);
    // The account's figures were read with the page; the release may have come between them and the sales': read again.
    await expect
      .poll(async () => {
        await sellerTab(page, 'Sales & payouts');
        return [await accountFigure(page, 'Available').textContent(), await accountFigure(page, 'On hold').textContent()];
      }, { timeout: 10_000, interval: 1000 })
      .toEqual([net, euro(0)]);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'marketplace-seller-sales-1280');
  });

  it('lets the admin run the payouts and mark the seller’s paid; the ledger stays balanced and the seller sees it paid', async () => {
    const net = euro(netCents / 100);
    const page = await pageAs(admin);
    await page.goto(`${store.baseUrl}/admin`);
    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Payouts' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Payouts' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('No payouts yet.').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Run payouts' }).click();
    await page.getByRole('dialog', { name: 'Run payouts?' }).getByRole('button', { name: 'Run payouts' }).click();
    const run = page.getByRole('region', { name: 'This run' });
    await expect.poll(() => run.getByText('1 payout made, to be transferred:').isVisible()).toBe(true);
    expect(await run.getByRole('row').filter({ hasText: sellerName }).getByText(net, { exact: true }).isVisible()).toBe(true);

    await page.getByRole('button', { name: `Mark paid: ${net} to ${sellerName}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Mark this payout paid?' });
    await dialog.getByLabel('Bank reference').fill(BANK_REFERENCE);
    await dialog.getByRole('button', { name: 'Mark paid' }).click();
    const payout = page.getByRole('table', { name: 'Payouts', exact: true }).getByRole('row').filter({ hasText: sellerName });
    await expect.poll(() => payout.getByText('Paid', { exact: true }).isVisible()).toBe(true);
    expect(await payout.getByText(BANK_REFERENCE).isVisible()).toBe(true);

    const total = page.getByRole('table', { name: 'Trial balance' }).getByRole('row').filter({ hasText: 'Total' });
    await expect.poll(() => total.textContent()).toContain('Balanced');
    expect(await total.getByText(euro(0), { exact: true }).isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await dismissToasts(page);
    await screenshot(page, 'marketplace-admin-payouts-1280');

    const sellerPage = await pageAs(seller.token);
    await sellerTab(sellerPage, 'Sales & payouts');
    const paid = sellerPage.getByRole('region', { name: 'Payouts', exact: true }).getByRole('row').filter({ hasText: BANK_REFERENCE });
    await expect.poll(() => paid.textContent()).toMatch(new RegExp(`${net.replace('.', '\\.')}Paid \\d{4}-\\d{2}-\\d{2}`));
    expect(await accountFigure(sellerPage, 'Available').textContent()).toBe(euro(0));
    await screenshot(sellerPage, 'marketplace-seller-payouts-1280');
  });
});
