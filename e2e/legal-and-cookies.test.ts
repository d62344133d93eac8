import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { accessibilityViolations, launchBrowser, screenshot } from './browser.ts';

const CONSENT_KEY = 'keystore.cookieConsent.v1';

describe('cookie consent and legal pages', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  /** A fresh visitor: new context, so no stored consent. */
  async function visitor(width = 1280, options: { bypassCSP?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 }, ...options });
    return { context, page: await context.newPage() };
  }

  const dialog = (page: Page) => page.getByRole('dialog', { name: 'Cookies on Keystore' });
  const storedConsent = (page: Page) =>
    page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null') as { id: string; status: string; givenAt: string } | null, CONSENT_KEY);

  it('asks on the first visit, and Allow all and Deny persist across reloads', async () => {
    const { context, page } = await visitor();
    await page.goto(`${baseUrl}/store`);
    await expect.poll(() => dialog(page).isVisible()).toBe(true);
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)).toBe(true);
    await screenshot(page, 'cookie-consent-1280');

    // A choice is required on the first visit: Escape does not dismiss the dialog.
    await page.keyboard.press('Escape');
    expect(await dialog(page).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Allow all' }).click();
    await expect.poll(() => dialog(page).count()).toBe(0);
    expect((await storedConsent(page))?.status).toBe('all');
    await page.reload();
    await expect.poll(() => page.getByRole('button', { name: 'Cookie settings' }).isVisible()).toBe(true);
    expect(await dialog(page).count()).toBe(0);

    // The cookie button reopens it with the current choice; Escape now closes it.
    await page.getByRole('button', { name: 'Cookie settings' }).click();
    await expect.poll(() => dialog(page).isVisible()).toBe(true);
    expect(await page.getByRole('switch', { name: 'Statistics' }).isChecked()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog(page).count()).toBe(0);

    await page.getByRole('button', { name: 'Cookie settings' }).click();
    await page.getByRole('button', { name: 'Deny' }).click();
    await expect.poll(() => dialog(page).count()).toBe(0);
    await page.reload();
    await expect.poll(() => page.getByRole('button', { name: 'Cookie settings' }).isVisible()).toBe(true);
    expect(await dialog(page).count()).toBe(0);
    expect((await storedConsent(page))?.status).toBe('necessary');
    await context.close();
  });

  it('shows the consent state, ID and date on the cookie policy, and its buttons change and withdraw it', async () => {
    const { context, page } = await visitor();
    await page.goto(`${baseUrl}/cookie-policy`);
    await expect.poll(() => dialog(page).isVisible()).toBe(true);
    const panel = page.getByRole('region', { name: 'Your consent', exact: true });
    expect(await panel.textContent()).toContain('Not given yet');

    await page.getByRole('button', { name: 'Allow selection' }).click();
    const consent = (await storedConsent(page))!;
    expect(consent.status).toBe('custom');
    await expect.poll(() => panel.textContent()).toContain('Your selection');
    const text = (await panel.textContent())!;
    expect(text).toContain(consent.id);
    expect(text).toContain(new Date(consent.givenAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' }));

    await page.getByRole('button', { name: 'Change your consent' }).click();
    await expect.poll(() => dialog(page).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Allow all' }).click();
    await expect.poll(() => panel.textContent()).toContain('All allowed');
    expect((await storedConsent(page))?.id).toBe(consent.id);

    await page.getByRole('button', { name: 'Withdraw your consent' }).click();
    await expect.poll(() => panel.textContent()).toContain('Necessary only (denied)');
    expect(await page.getByRole('status').filter({ hasText: 'withdrawn' }).isVisible()).toBe(true);
    expect((await storedConsent(page))?.status).toBe('necessary');
    await screenshot(page, 'cookie-policy-1280');
    await context.close();
  });

  const PAGES = [
    { path: '/terms', heading: 'Terms & Conditions', facts: ['10:00', '22:00 UK time', '30 days', '7 business days', 'euros', 'every 4 hours', '18', 'within 24 hours', 'within 5 business days', 'up to 1 business day', 'Visa and Mastercard', 'Keystore Digital Ltd'] },
    { path: '/privacy-policy', heading: 'Privacy Policy', facts: ['UK GDPR', 'e-mail address, username', 'Order history', 'IP addresses', 'Session id', 'Payment provider', 'E-mail provider', 'Keystore Digital Ltd'] },
    { path: '/cookie-policy', heading: 'Cookie Policy', facts: ['keystore.token', 'keystore.sessionId', 'keystore.cart.v1', 'keystore.cookieConsent.v1', '_ga', '365 days'] },
  ] as const;

  it.each(PAGES)('renders $heading with its headings and key facts', async ({ path, heading, facts }) => {
    const { context, page } = await visitor();
    await page.goto(`${baseUrl}${path}`);
    await page.getByRole('button', { name: 'Deny' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1, name: heading }).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 2 }).count()).toBeGreaterThan(4);
    const text = (await page.getByRole('main').textContent())!;
    for (const fact of facts) expect(text).toContain(fact);
    await context.close();
  });

  it('has no serious accessibility violations on the legal pages or in the dialog', async () => {
    // axe-core is injected as an inline script, which the store's Content-Security-Policy rightly forbids.
    const { context, page } = await visitor(1280, { bypassCSP: true });
    await page.goto(`${baseUrl}/terms`);
    await expect.poll(() => dialog(page).isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Deny' }).click();
    for (const { path, heading } of PAGES) {
      await page.goto(`${baseUrl}${path}`);
      await expect.poll(() => page.getByRole('heading', { level: 1, name: heading }).isVisible()).toBe(true);
      expect(await accessibilityViolations(page), path).toEqual([]);
    }
    await context.close();
  });

  it('reads well at 1280 and 390 px wide', async () => {
    for (const width of [1280, 390]) {
      const { context, page } = await visitor(width);
      await page.goto(`${baseUrl}/terms`);
      await expect.poll(() => dialog(page).isVisible()).toBe(true);
      if (width === 390) await screenshot(page, 'cookie-consent-390');
      await page.getByRole('button', { name: 'Deny' }).click();
      for (const { path, heading } of PAGES) {
        await page.goto(`${baseUrl}${path}`);
        await expect.poll(() => page.getByRole('heading', { level: 1, name: heading }).isVisible()).toBe(true);
        // No sideways scrolling of the page itself (wide tables scroll inside their own box).
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(page, `legal${path.replace('/', '-')}-${width}`);
        if (path === '/cookie-policy') {
          await page.getByRole('table', { name: 'Necessary storage' }).scrollIntoViewIfNeeded();
          await screenshot(page, `legal-cookie-tables-${width}`);
        }
      }
      await page.getByRole('button', { name: 'Cookie settings' }).scrollIntoViewIfNeeded();
      expect(await page.getByRole('button', { name: 'Cookie settings' }).isVisible()).toBe(true);
      await context.close();
    }
  });
});
