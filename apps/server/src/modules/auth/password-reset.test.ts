import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { accountMessages, validationMessages as v } from '@keystore/contract';
import { accountCodes } from './schema.ts';
import { codeIn, linkIn } from '../../test/smtp-sink.ts';
import { authTestApp, type AuthTestApp } from './test-kit.ts';

let t: AuthTestApp;
beforeAll(async () => {
  t = await authTestApp();
});
afterAll(() => t.close());

const NEW_PASSWORD = 'Brandnew9';

/** Asks for a reset link and answers its e-mail and token. */
async function resetLink(email: string): Promise<{ email: string; token: string }> {
  const answer = await t.post('/api/auth/forgot-password', { email });
  expect(answer.json()).toEqual({ message: accountMessages.recoveryEmailSent });
  const link = linkIn(await t.sink.nextMail(email), '/reset-password');
  expect(link.origin).toBe('https://shop.example');
  return { email: link.searchParams.get('email')!, token: link.searchParams.get('token')! };
}

describe('password recovery', () => {
  it('answers the same whether or not the account exists, and mails only a real account', async () => {
    const customer = await t.verifiedCustomer();
    const known = await t.post('/api/auth/forgot-password', { email: customer.email });
    const unknown = await t.post('/api/auth/forgot-password', { email: 'no.account.here@gmail.com' });
    expect([known.statusCode, unknown.statusCode]).toEqual([200, 200]);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json()).toEqual({ message: accountMessages.recoveryEmailSent });
    expect(await t.mailsTo('no.account.here@gmail.com')).toBe(0);
    const link = linkIn(await t.sink.nextMail(customer.email), '/reset-password');
    expect(link.searchParams.get('email')).toBe(customer.email);
    expect(link.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('sets the new password with the link, ends every session, and works once', async () => {
    const customer = await t.verifiedCustomer();
    const tokens = [await t.login(customer.email, customer.password), await t.login(customer.email, customer.password)];
    const link = await resetLink(customer.email);

    const reset = await t.post('/api/auth/reset-password', { ...link, password: NEW_PASSWORD });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ message: accountMessages.passwordChanged });
    for (const token of tokens) expect((await t.post('/api/auth/logout', undefined, { token })).statusCode).toBe(401);

    const notice = await t.sink.nextMail(customer.email);
    expect(notice.subject).toMatch(/password was changed/);

    expect((await t.post('/api/auth/login', { email: customer.email, password: customer.password })).statusCode).toBe(401);
    expect(await t.login(customer.email, NEW_PASSWORD)).toBeTruthy();

    const reused = await t.post('/api/auth/reset-password', { ...link, password: 'Another77' });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({ error: accountMessages.resetLinkInvalid });
  });

  it('keeps only a hash of the token, and a newer link voids the older one', async () => {
    const customer = await t.verifiedCustomer();
    const older = await resetLink(customer.email);
    const newer = await resetLink(customer.email);
    const rows = await t.database.db.select().from(accountCodes).where(eq(accountCodes.purpose, 'reset-password'));
    for (const row of rows) expect(row.secretHash).not.toContain(newer.token);
    expect((await t.post('/api/auth/reset-password', { ...older, password: NEW_PASSWORD })).json()).toEqual({ error: accountMessages.resetLinkInvalid });
    expect((await t.post('/api/auth/reset-password', { ...newer, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('refuses an expired, a wrong or a foreign token', async () => {
    const customer = await t.verifiedCustomer();
    const other = await t.verifiedCustomer();
    const otherLink = await resetLink(other.email);
    const wrongAccount = await t.post('/api/auth/reset-password', { email: customer.email, token: otherLink.token, password: NEW_PASSWORD });
    expect(wrongAccount.json()).toEqual({ error: accountMessages.resetLinkInvalid });
    const nobody = await t.post('/api/auth/reset-password', { email: 'nobody.else@gmail.com', token: otherLink.token, password: NEW_PASSWORD });
    expect(nobody.json()).toEqual({ error: accountMessages.resetLinkInvalid });

    const link = await resetLink(customer.email);
    await t.ageLastCode(customer.email, 'reset-password', 30 * 60 + 1);
    const expired = await t.post('/api/auth/reset-password', { ...link, password: NEW_PASSWORD });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ error: accountMessages.resetLinkInvalid });
  });

  it('checks the new password with the reset dialog’s message, and the e-mail with the shared rule', async () => {
    const customer = await t.verifiedCustomer();
    const link = await resetLink(customer.email);
    for (const password of ['short', 'nouppercase1']) {
      const response = await t.post('/api/auth/reset-password', { ...link, password });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: v.resetPasswordRules });
    }
    expect((await t.post('/api/auth/reset-password', { ...link, token: '', password: NEW_PASSWORD })).json()).toEqual({ error: v.tokenRequired });
    expect((await t.post('/api/auth/forgot-password', { email: 'missing-at.gmail.com' })).json()).toEqual({ error: v.emailNeedsAt });
    expect((await t.post('/api/auth/forgot-password', {})).json()).toEqual({ error: v.emailRequired });
  });

  it('takes a passphrase of 16 or more characters without an uppercase letter (decision 017)', async () => {
    const customer = await t.verifiedCustomer();
    const link = await resetLink(customer.email);
    expect((await t.post('/api/auth/reset-password', { ...link, password: 'fifteen chars!!' })).json()).toEqual({ error: v.resetPasswordRules });
    const reset = await t.post('/api/auth/reset-password', { ...link, password: 'correct horse battery staple' });
    expect(reset.statusCode).toBe(200);
    expect(await t.login(customer.email, 'correct horse battery staple')).toBeTruthy();
  });

  it('refuses a common password and keeps the link usable (decision 017)', async () => {
    const customer = await t.verifiedCustomer();
    const link = await resetLink(customer.email);
    const common = await t.post('/api/auth/reset-password', { ...link, password: 'Qwerty123' });
    expect(common.statusCode).toBe(400);
    expect(common.json()).toEqual({ error: v.passwordCommon });
    expect((await t.post('/api/auth/reset-password', { ...link, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('counts a reset as proof of the e-mail: an unverified account can log in afterwards', async () => {
    const customer = t.newCustomer();
    await t.post('/api/auth/register', customer);
    codeIn(await t.sink.nextMail(customer.email));
    const link = await resetLink(customer.email);
    expect((await t.post('/api/auth/reset-password', { ...link, password: NEW_PASSWORD })).statusCode).toBe(200);
    // Not yet trusted from this address (the reset proves the e-mail, not the device): a code comes.
    expect((await t.post('/api/auth/login', { email: customer.email, password: NEW_PASSWORD })).json()).toEqual({
      twoFactorRequired: true,
      method: 'email',
      message: accountMessages.newDeviceCodeSent,
    });
  });
});
