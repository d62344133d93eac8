import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshIdentity, latestMail } from './accounts.ts';
import { accessibilityViolations, launchBrowser, screenshot, visitorContextAt } from './browser.ts';

describe('support: the e-mail form and the live chat', () => {
  const baseUrl = inject('baseUrl');
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  async function supportPage(width: number, height: number): Promise<Page> {
    const context = await visitorContextAt(browser, width, height);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/support`);
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Support' }).isVisible()).toBe(true);
    return page;
  }

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser.close();
  });

  it('sends a message: rules under the fields, then the success text, the mail to the team and the acknowledgement', async () => {
    const page = await supportPage(1280, 900);
    await page.getByRole('button', { name: 'Send a message' }).click();
    await expect.poll(() => page.getByText('Email is required').isVisible()).toBe(true);
    expect(await page.getByText('Title of message is required').isVisible()).toBe(true);

    const { email } = freshIdentity('writer');
    const title = `Key missing ${Date.now()}`;
    await page.getByLabel('Email', { exact: true }).fill(email.toUpperCase());
    await page.getByLabel('Name').fill('Ada Writer');
    await page.getByLabel('Title of message').fill(title);
    await page.getByLabel('Message', { exact: true }).fill('I paid for my order but the key has not arrived yet.');
    expect(await page.getByText('52/450').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Send a message' }).click();
    await expect.poll(() => page.getByText('Thank you! Your message has been sent. We answer within 24 hours.').isVisible()).toBe(true);
    await screenshot(page, 'support-form-sent-1280');

    const acknowledgement = await latestMail(baseUrl, email, /We received your message/);
    expect(acknowledgement.text).toContain('we answer within 24 hours');
    // The team's copy, as the dev outbox lists it.
    await page.goto(`${baseUrl}/dev/mail`);
    await expect.poll(() => page.getByText(`[Support] ${title}`).first().isVisible()).toBe(true);
  });

  it('answers in the live chat: the greeting, then refunds in 7 business days', async () => {
    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ] as const) {
      const page = await supportPage(width, height);
      await screenshot(page, `support-page-${width}`);
      await page.getByRole('button', { name: 'Start a live chat' }).click();
      await expect.poll(() => page.getByText("Hi! I'm AI support. How can I help you?").isVisible()).toBe(true);
      await page.getByLabel('Your message').fill('How long does a refund take?');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await expect.poll(() => page.getByRole('list', { name: 'Chat messages' }).getByText(/7 business days/).isVisible()).toBe(true);
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.getByRole('list', { name: 'Chat messages' }).scrollIntoViewIfNeeded();
      await screenshot(page, `support-chat-${width}`);
    }
  });
});
