import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateTOTP } from '@epic-web/totp';
import { createVerifiedUser, latestMail, signedInContext, type TestAccount } from './accounts.ts';
import { accessibilityViolations, launchBrowser, screenshot } from './browser.ts';
import { startStore, type StoreProcess } from './store-process.ts';

// The account's Security section and the sign-in's second steps (issue 30) in Chromium: an
// authenticator app set up with codes computed here, then a sign-in with a code and one with a
// recovery code; a passkey registered with Chromium's virtual authenticator (the DevTools protocol),
// then a sign-in with it alone. Passkeys need a domain, so this file runs its own store on localhost.
describe('security in the browser', () => {
  let store: StoreProcess;
  let baseUrl: string;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    store = await startStore({}, { hostName: 'localhost' });
    baseUrl = store.baseUrl;
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
    await store?.stop();
  });

  const dialog = (page: Page, title: string) => page.getByRole('dialog', { name: title });
  const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Main' }).first();
  const toast = (page: Page, text: string) => page.getByRole('region', { name: 'Messages' }).getByText(text);
  const securityCard = (page: Page) => page.getByRole('region', { name: 'Security' });

  async function signedInPage(account: TestAccount): Promise<Page> {
    // bypassCSP: axe-core is injected as an inline script.
    const context = await signedInContext(browser, baseUrl, account, { viewport: { width: 1280, height: 900 }, bypassCSP: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    contexts.push(context);
    return context.newPage();
  }

  async function openSecurity(page: Page): Promise<Locator> {
    await page.goto(`${baseUrl}/profile`);
    const card = securityCard(page);
    await card.waitFor();
    return card;
  }

  /** Signs out through the API (the token stops working) and reloads: the visitor's home. */
  async function signOut(page: Page): Promise<void> {
    await page.evaluate(async () => {
      const token = localStorage.getItem('keystore.token');
      await fetch('/api/auth/logout', { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      localStorage.clear();
    });
    await page.goto(`${baseUrl}/`);
  }

  async function openLogin(page: Page): Promise<Locator> {
    await sidebar(page).getByRole('button', { name: 'Login' }).click();
    const login = dialog(page, 'Login');
    await login.waitFor();
    return login;
  }

  /** The app's code `offsetSeconds` from now: the journey is the phone. */
  async function appCode(secret: string, offsetSeconds = 0): Promise<string> {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + offsetSeconds * 1000 });
    try {
      return (await generateTOTP({ secret })).otp;
    } finally {
      vi.useRealTimers();
    }
  }

  async function pasteCode(box: Locator, code: string) {
    await box.page().evaluate((text) => navigator.clipboard.writeText(text), code);
    await box.focus();
    await box.press('ControlOrMeta+V');
  }

  it('sets up an authenticator app, then signs in with its code and with a recovery code', async () => {
    const account = await createVerifiedUser(baseUrl, 'totp');
    const page = await signedInPage(account);
    const card = await openSecurity(page);
    await card.getByRole('button', { name: 'Set up authenticator app' }).click();

    const setup = dialog(page, 'Set up authenticator app');
    await setup.getByLabel('Your password', { exact: true }).fill(account.password);
    await setup.getByRole('button', { name: 'Continue' }).click();
    await setup.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await setup.locator('code').textContent())!.replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await screenshot(page, 'security-totp-qr-1280');
    expect(await accessibilityViolations(page)).toEqual([]);
    await setup.getByLabel('Code from your authenticator app').fill('000000');
    await setup.getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => setup.getByRole('alert').textContent()).toBe('Invalid code. Please try again.');
    await setup.getByLabel('Code from your authenticator app').fill(await appCode(secret));
    await setup.getByRole('button', { name: 'Turn on' }).click();

    const saved = dialog(page, 'Save your recovery codes');
    await saved.waitFor();
    const codes = await saved.getByRole('list', { name: 'Recovery codes' }).locator('code').allTextContents();
    expect(codes).toHaveLength(10);
    await screenshot(page, 'security-recovery-codes-1280');
    await saved.getByRole('button', { name: 'I saved them' }).click();
    await expect.poll(() => card.getByText('Recovery codes left: 10 of 10.', { exact: false }).isVisible()).toBe(true);
    expect((await latestMail(baseUrl, account.email, /Authenticator app turned on/)).text).toContain("This wasn't me");

    // Signed out, the password alone is not enough: the app's code comes next (the next step's, as the set-up took this one).
    await signOut(page);
    let login = await openLogin(page);
    await login.getByLabel('Email').fill(account.email);
    await login.getByLabel('Password').fill(account.password);
    await login.getByRole('button', { name: 'Login' }).click();
    const step = dialog(page, 'Two-step verification');
    await step.waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'security-totp-step-1280');
    await pasteCode(step.getByRole('textbox', { name: 'Digit 1 of 6' }), await appCode(secret, 30));
    await step.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => sidebar(page).getByRole('link', { name: account.username }).isVisible()).toBe(true);
    expect(await page.getByRole('dialog').count()).toBe(0);

    // And with a recovery code instead of the phone.
    await signOut(page);
    login = await openLogin(page);
    await login.getByLabel('Email').fill(account.email);
    await login.getByLabel('Password').fill(account.password);
    await login.getByRole('button', { name: 'Login' }).click();
    await dialog(page, 'Two-step verification').getByRole('button', { name: 'Use a recovery code instead' }).click();
    await dialog(page, 'Two-step verification').getByLabel('Recovery code').fill(codes[0]!);
    await dialog(page, 'Two-step verification').getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => sidebar(page).getByRole('link', { name: account.username }).isVisible()).toBe(true);
    const again = await openSecurity(page);
    await expect.poll(() => again.getByText('Recovery codes left: 9 of 10.', { exact: false }).isVisible()).toBe(true);
  });

  it('registers a passkey in the profile, then signs in with it alone', async () => {
    const account = await createVerifiedUser(baseUrl, 'passkey');
    const page = await signedInPage(account);
    // Chromium's virtual authenticator: a platform authenticator that keeps discoverable credentials and verifies its user.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });

    const card = await openSecurity(page);
    await card.getByRole('button', { name: 'Add a passkey' }).click();
    const add = dialog(page, 'Add a passkey');
    await add.getByLabel('Name').fill('Work laptop');
    await add.getByLabel('Your password', { exact: true }).fill(account.password);
    await add.getByRole('button', { name: 'Add passkey' }).click();
    await expect.poll(() => toast(page, 'Passkey added').isVisible()).toBe(true);
    await expect.poll(() => card.getByRole('list', { name: 'Your passkeys' }).getByText('Work laptop').isVisible()).toBe(true);
    await screenshot(page, 'security-section-1280');
    expect(await accessibilityViolations(page)).toEqual([]);

    // Where the browser offers passkeys among the e-mail field's suggestions (conditional UI), picking it signs in:
    // the virtual authenticator answers that request as a person picking the suggestion would.
    await signOut(page);
    await sidebar(page).getByRole('button', { name: 'Login' }).click();
    await expect.poll(() => sidebar(page).getByRole('link', { name: account.username }).isVisible()).toBe(true);
    expect(await page.getByRole('dialog').count()).toBe(0);

    // Where it does not, "Sign in with a passkey" asks the browser's prompt.
    await page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
    });
    await signOut(page);
    const login = await openLogin(page);
    await screenshot(page, 'security-passkey-login-1280');
    await login.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect.poll(() => sidebar(page).getByRole('link', { name: account.username }).isVisible()).toBe(true);
    expect(await page.getByRole('dialog').count()).toBe(0);

    // The devices list shows this one, marked.
    const devices = (await openSecurity(page)).getByRole('list', { name: 'Signed-in devices' });
    await expect.poll(() => devices.getByText('This device').isVisible()).toBe(true);
  });
});
