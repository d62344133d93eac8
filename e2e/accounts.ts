// Accounts for the browser journeys, made through the real API: register, read the code the store
// e-mailed from the dev outbox, verify, log in. Verifying also trusts 127.0.0.1 for the account, so
// the browser (same address) signs in without the new-device code.
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import type { User } from '@keystore/contract';
import { usernameProblem } from '@keystore/contract/rules';
import { STORAGE_KEYS } from '../apps/web/src/lib/storage-keys.ts';
import { newVisitorContext } from './browser.ts';

export interface TestAccount {
  username: string;
  email: string;
  password: string;
  token: string;
  user: User;
}

interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  createdAt: string;
  /** Extra headers (an alert's List-Unsubscribe). */
  headers?: Record<string, string>;
}

/** A short random suffix, so every run and every test has its own accounts. */
export function uniqueSuffix(): string {
  return Math.random().toString(36).slice(2, 10);
}

/** A user name and e-mail no other test uses (.org is a recognized suffix), drawn again when the random part spells a word the store refuses. */
export function freshIdentity(prefix: string): { username: string; email: string } {
  for (;;) {
    const suffix = uniqueSuffix();
    const username = `${prefix}_${suffix}`.slice(0, 20);
    if (usernameProblem(username) === undefined) return { username, email: `${prefix}-${suffix}@example.org` };
  }
}

export async function call<T>(baseUrl: string, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: T; requestId: string | null }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => undefined)) as T, requestId: response.headers.get('x-request-id') };
}

/** The mails the store sent to `email`, newest first. */
export async function mailsTo(baseUrl: string, email: string): Promise<OutboxMail[]> {
  const response = await fetch(`${baseUrl}/dev/mail/messages?to=${encodeURIComponent(email)}`);
  if (!response.ok) throw new Error(`the dev outbox answered ${response.status}`);
  return (await response.json()) as OutboxMail[];
}

/** Waits for the newest mail to `email` whose subject matches, and answers it. */
export async function latestMail(baseUrl: string, email: string, subject: RegExp): Promise<OutboxMail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = (await mailsTo(baseUrl, email)).find((candidate) => subject.test(candidate.subject));
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail matching ${subject} reached ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The 6-digit code of the newest mail to `email` whose subject matches. */
export async function mailedCode(baseUrl: string, email: string, subject = /verification code/i): Promise<string> {
  const mail = await latestMail(baseUrl, email, subject);
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in the mail "${mail.subject}"`);
  return code;
}

/** Logs in through the API; answers the status and the body (a session, a two-factor notice or an error). */
export function login(baseUrl: string, email: string, password: string) {
  return call<{ token?: string; user?: User; twoFactorRequired?: true; error?: string }>(baseUrl, 'POST', '/api/auth/login', { email, password });
}

/** Registers a customer, verifies the e-mail with the mailed code and logs in. */
export async function createVerifiedUser(baseUrl: string, prefix = 'shopper', password = 'Secret-pass1'): Promise<TestAccount> {
  const { username, email } = freshIdentity(prefix);
  const registered = await call(baseUrl, 'POST', '/api/auth/register', { username, email, password });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}: ${JSON.stringify(registered.body)}`);
  const code = await mailedCode(baseUrl, email);
  const verified = await call(baseUrl, 'POST', '/api/auth/verify-email', { email, code });
  if (verified.status !== 200) throw new Error(`verify-email answered ${verified.status}: ${JSON.stringify(verified.body)}`);
  const session = await login(baseUrl, email, password);
  if (!session.body.token || !session.body.user) throw new Error(`login answered ${session.status}: ${JSON.stringify(session.body)}`);
  return { username, email, password, token: session.body.token, user: session.body.user };
}

/**
 * A browser context signed in as `account`: the token is in localStorage before the first page loads,
 * as if the user had logged in earlier (cookie consent already answered, as for any visitor context).
 * Seeded once, so logging out or deleting the account sticks across reloads.
 */
export function signedInContext(browser: Browser, baseUrl: string, account: Pick<TestAccount, 'token'>, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  return newVisitorContext(browser, {
    ...options,
    storageState: { cookies: [], origins: [{ origin: baseUrl, localStorage: [{ name: STORAGE_KEYS.token, value: account.token }] }] },
  });
}

/**
 * The token of the admin a store was started with (ADMIN_EMAIL / ADMIN_PASSWORD): the first login asks
 * for the new-device code, like any account's, which the dev outbox holds.
 */
export async function adminToken(baseUrl: string, admin: { email: string; password: string }): Promise<string> {
  const first = await login(baseUrl, admin.email, admin.password);
  if (first.body.token) return first.body.token;
  const code = await mailedCode(baseUrl, admin.email, /sign-in code/i);
  const verified = await call<{ token?: string }>(baseUrl, 'POST', '/api/auth/verify-new-device', { email: admin.email, code });
  if (!verified.body.token) throw new Error(`verify-new-device answered ${verified.status}`);
  return verified.body.token;
}
