// The system Chromium driven by playwright-core: no test tool downloads a browser of its own.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const artifacts = path.join(import.meta.dirname, 'artifacts');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
  });
}

/** Saves a screenshot under e2e/artifacts, to look at what a person would see. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: false });
}

/** Runs axe-core in the page and answers the serious and critical accessibility violations. */
export async function accessibilityViolations(page: Page): Promise<Array<{ id: string; help: string; nodes: number; first: string }>> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: Array<{ id: string; help: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    return axe.run(document);
  });
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({ id: violation.id, help: violation.help, nodes: violation.nodes.length, first: violation.nodes[0]?.target.join(' ') ?? '' }));
}

/**
 * A browser context (own storage) of a visitor who has already answered the cookie question
 * ("necessary only"), for journeys that are not about cookie consent: its dialog stays closed.
 * Pages of one context share localStorage, like the tabs of one browser.
 */
export async function newVisitorContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await context.addInitScript(() => {
    const key = 'keystore.cookieConsent.v1';
    if (localStorage.getItem(key)) return;
    const preferences = { necessary: true, statistic: false, preferences: false };
    localStorage.setItem(key, JSON.stringify({ id: 'e2e-visitor', status: 'necessary', preferences, givenAt: new Date().toISOString() }));
  });
  return context;
}

/** A page in a new visitor context (see newVisitorContext). */
export async function newVisitorPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  return (await newVisitorContext(browser, options)).newPage();
}

/** A visitor's context at a window size, with axe-core allowed to inject its inline script (bypassCSP). */
export function visitorContextAt(browser: Browser, width: number, height: number): Promise<BrowserContext> {
  return newVisitorContext(browser, { viewport: { width, height }, bypassCSP: true });
}
