import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { encodePng } from '../apps/server/src/test/png.ts';
import { createVerifiedUser, login, signedInContext, type TestAccount } from './accounts.ts';
import { accessibilityViolations, artifacts, launchBrowser, screenshot, visitorContextAt } from './browser.ts';

/** A real PNG: a colour gradient. */
function gradientPng(size: number): Buffer {
  const rows = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y += 1) {
    const row = y * (1 + size * 3);
    for (let x = 0; x < size; x += 1) rows.set([(x * 255) / size, (y * 255) / size, 160], row + 1 + x * 3);
  }
  return encodePng({ width: size, height: size, bitDepth: 8, colour: 'rgb', rows });
}

describe('the profile and the library', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  async function signedInPage(account: TestAccount, width = 1280, height = 900): Promise<Page> {
    // bypassCSP: axe-core is injected as an inline script.
    const context = await signedInContext(browser, baseUrl, account, { viewport: { width, height }, bypassCSP: true });
    contexts.push(context);
    return context.newPage();
  }

  async function openProfile(page: Page, account: TestAccount) {
    await page.goto(`${baseUrl}/profile`);
    await expect.poll(() => page.getByRole('main').getByText(account.email).isVisible()).toBe(true);
  }

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser.close();
  });

  it("welcomes a visitor in the library, whose 'Sign In' opens the login dialog", async () => {
    for (const [width, height] of [[1280, 900], [390, 844]] as const) {
      const context = await visitorContextAt(browser, width, height);
      contexts.push(context);
      const page = await context.newPage();
      await page.goto(`${baseUrl}/library`);
      const welcome = page.getByRole('heading', { level: 1, name: 'Welcome to your Library' });
      await expect.poll(() => welcome.isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Create Account' }).isVisible()).toBe(true);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `library-visitor-${width}`);

      await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
      await expect.poll(() => page.getByRole('dialog', { name: 'Login' }).isVisible()).toBe(true);
    }
  });

  it("shows a customer's empty library with the way to the store", async () => {
    const account = await createVerifiedUser(baseUrl, 'library');
    for (const [width, height] of [[1280, 900], [390, 844]] as const) {
      const page = await signedInPage(account, width, height);
      await page.goto(`${baseUrl}/library`);
      await expect.poll(() => page.getByRole('heading', { level: 1, name: 'My Library' }).isVisible()).toBe(true);
      // The empty state shows once the (empty) purchases have been fetched.
      await expect.poll(() => page.getByText('Your library is empty').isVisible()).toBe(true);
      expect(await page.getByRole('link', { name: 'Browse Store' }).getAttribute('href')).toBe('/store');
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `library-customer-${width}`);
    }
  });

  it('uploads a profile photo: it shows on the profile and in the sidebar, served as WebP', async () => {
    const account = await createVerifiedUser(baseUrl, 'avatar');
    const page = await signedInPage(account);
    await openProfile(page, account);
    expect(await page.getByRole('main').getByRole('img', { name: 'Profile photo' }).count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Edit profile photo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit profile photo' });
    await dialog.getByLabel('Choose an image').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: gradientPng(96) });
    await expect.poll(() => dialog.getByRole('img', { name: 'Preview of the chosen photo' }).isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'profile-photo-dialog-1280');
    await dialog.getByRole('button', { name: 'Upload photo' }).click();

    await expect.poll(() => page.getByText('Profile photo updated!').isVisible()).toBe(true);
    expect(await dialog.count()).toBe(0);
    const photo = page.getByRole('main').getByRole('img', { name: 'Profile photo' });
    const src = (await photo.getAttribute('src'))!;
    expect(src).toMatch(/^\/media\/avatars\/[\w-]+\.webp$/);
    await expect.poll(() => photo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    const sidebarPhoto = page.locator('nav a[href="/profile"] img').first();
    await expect.poll(() => sidebarPhoto.getAttribute('src')).toBe(src);

    await screenshot(page, 'profile-with-photo-1280');

    const served = await fetch(`${baseUrl}${src}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.subarray(8, 12).toString('ascii')).toBe('WEBP');

    // The photo stays after a reload: it is the account's, not the page's.
    await page.reload();
    await expect.poll(() => page.getByRole('main').getByRole('img', { name: 'Profile photo' }).getAttribute('src')).toBe(src);
  });

  it('changes the password: the old one no longer logs in, the new one does', async () => {
    const account = await createVerifiedUser(baseUrl, 'password');
    const page = await signedInPage(account);
    await openProfile(page, account);
    const form = page.getByRole('region', { name: 'Change your password' });

    await form.getByRole('button', { name: 'Update password' }).click();
    await expect.poll(() => form.getByText('Current password is required').isVisible()).toBe(true);
    await form.getByLabel('Current password', { exact: true }).fill('Wrong-pass1');
    await form.getByLabel('New password', { exact: true }).fill('Fresh-pass2');
    await form.getByLabel('Confirm new password', { exact: true }).fill('Fresh-pass2');
    await form.getByRole('button', { name: 'Update password' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('Current password is incorrect');

    await form.getByLabel('Current password', { exact: true }).fill(account.password);
    const toggle = form.getByRole('button', { name: 'Show current password' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await form.getByLabel('Current password', { exact: true }).getAttribute('type')).toBe('text');
    await form.getByRole('button', { name: 'Update password' }).click();
    await expect.poll(() => page.getByText('Password updated successfully!').isVisible()).toBe(true);
    expect(await form.getByLabel('Current password', { exact: true }).inputValue()).toBe('');

    const old = await login(baseUrl, account.email, account.password);
    expect(old.status).toBe(401);
    expect(old.body.error).toBe('Invalid email or password');
    const fresh = await login(baseUrl, account.email, 'Fresh-pass2');
    expect(fresh.status).toBe(200);
    expect(fresh.body.token).toBeTruthy();
    // This browser's session survives the change (only the other sessions end).
    await page.reload();
    await expect.poll(() => page.getByRole('main').getByText(account.email).isVisible()).toBe(true);
  });

  it('deletes the account: signed out, at home, and the old credentials are refused', async () => {
    const account = await createVerifiedUser(baseUrl, 'leaving');
    const page = await signedInPage(account);
    await openProfile(page, account);
    await page.getByRole('button', { name: 'Delete your account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    expect(await accessibilityViolations(page)).toEqual([]);
    // A token alone does not delete: the password is asked again.
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await expect.poll(() => dialog.getByText('Current password is required').isVisible()).toBe(true);
    await screenshot(page, 'profile-delete-required-1280');
    await dialog.getByLabel('Your password', { exact: true }).fill(account.password);
    await dialog.getByRole('button', { name: 'Delete account' }).click();

    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await expect.poll(() => page.getByText('Your account has been deleted.').isVisible()).toBe(true);
    const sidebar = page.locator('nav').filter({ has: page.getByRole('button', { name: 'Sign Up' }) });
    await expect.poll(() => sidebar.getByRole('button', { name: 'Login' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('keystore.token'))).toBeNull();
    expect((await fetch(`${baseUrl}/api/users/profile`, { headers: { Authorization: `Bearer ${account.token}` } })).status).toBe(401);

    await sidebar.getByRole('button', { name: 'Login' }).click();
    const loginDialog = page.getByRole('dialog', { name: 'Login' });
    await loginDialog.getByLabel('Email').fill(account.email);
    await loginDialog.getByLabel('Password').fill(account.password);
    await loginDialog.getByRole('button', { name: 'Login' }).click();
    await expect.poll(() => loginDialog.getByText('Invalid email or password').isVisible()).toBe(true);
  });

  it('lays the profile out at desktop and phone widths, with Log out on the phone', async () => {
    const account = await createVerifiedUser(baseUrl, 'layout');
    for (const [width, height] of [[1280, 900], [390, 844]] as const) {
      const page = await signedInPage(account, width, height);
      await openProfile(page, account);
      const logOut = page.getByRole('main').getByRole('button', { name: 'Log out' });
      expect(await logOut.isVisible()).toBe(width <= 878);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await screenshot(page, `profile-${width}`);
      await page.screenshot({ path: path.join(artifacts, `profile-${width}-full.png`), fullPage: true });

      await page.getByRole('button', { name: 'Membership levels' }).focus();
      await expect.poll(() => page.getByRole('tooltip').textContent()).toContain('Cart King€800+');
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, `profile-tooltip-${width}`);
    }

    const phone = await signedInPage(account, 390, 844);
    await openProfile(phone, account);
    await phone.getByRole('main').getByRole('button', { name: 'Log out' }).click();
    await expect.poll(() => new URL(phone.url()).pathname).toBe('/');
    expect(await phone.evaluate(() => localStorage.getItem('keystore.token'))).toBeNull();
    expect(await phone.getByRole('dialog').count()).toBe(0);
  });

  it('sends a visitor who opens the profile to the login dialog', async () => {
    const context = await visitorContextAt(browser, 1280, 900);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/profile`);
    await expect.poll(() => page.getByRole('dialog', { name: 'Login' }).isVisible()).toBe(true);
  });
});

