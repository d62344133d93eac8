import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { accountMessages, validationMessages as v, type Session } from '@keystore/contract';
import { users } from '../users/schema.ts';
import { accountCodes } from './schema.ts';
import { codeIn, linkIn } from '../../test/smtp-sink.ts';
import { authTestApp, HOME_IP, type AuthTestApp } from './test-kit.ts';

let t: AuthTestApp;
beforeAll(async () => {
  t = await authTestApp();
});
afterAll(() => t.close());

/** A code that is not `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('sign-up and e-mail verification', () => {
  it('tells the event bus of each account created, and of none refused', async () => {
    const created: string[] = [];
    const unsubscribe = t.app.events.on('account-created', ({ userId }) => void created.push(userId));
    const customer = t.newCustomer();
    expect((await t.post('/api/auth/register', customer)).statusCode).toBe(201);
    expect((await t.post('/api/auth/register', customer)).statusCode).toBe(409);
    unsubscribe();
    await t.app.events.drain();
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, customer.email));
    expect(created).toEqual([user!.id]);
  });

  it('registers an unverified account, mails a code and a link, and verifies by code from the dialog', async () => {
    const customer = t.newCustomer();
    const registered = await t.post('/api/auth/register', customer);
    expect(registered.statusCode).toBe(201);
    expect(registered.json()).toEqual({ message: accountMessages.registered });

    const mail = await t.sink.nextMail(customer.email);
    const code = codeIn(mail);
    expect(code).toMatch(/^\d{6}$/);
    const link = linkIn(mail, '/confirm-email');
    expect(link.origin).toBe('https://shop.example');
    expect(Object.fromEntries(link.searchParams)).toEqual({ email: customer.email, code });
    expect(mail.html).toContain(code);

    const early = await t.post('/api/auth/login', { email: customer.email, password: customer.password });
    expect(early.statusCode).toBe(403);
    expect(early.json()).toEqual({ error: accountMessages.verifyEmailFirst });

    const verified = await t.post('/api/auth/verify-email', { email: customer.email, code });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ message: accountMessages.emailVerified });

    // Verifying trusted the address it came from, so the login needs no second code.
    const login = await t.post('/api/auth/login', { email: customer.email.toUpperCase(), password: customer.password });
    expect(login.statusCode).toBe(200);
    const session = login.json<Session>();
    expect(session.token.split('.')).toHaveLength(3);
    expect(session.user).toMatchObject({ username: customer.username, email: customer.email, role: 'customer', membership: 'Key Newb', totalSpent: 0 });
  });

  it('verifies from the e-mailed link, and a second opening of the link still reads as success', async () => {
    const customer = t.newCustomer();
    await t.post('/api/auth/register', customer);
    const link = linkIn(await t.sink.nextMail(customer.email), '/confirm-email');
    const body = { email: link.searchParams.get('email'), code: link.searchParams.get('code') };

    const first = await t.post('/api/auth/verify-email-from-link', body, { ip: '192.0.2.44' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ success: true, message: accountMessages.emailVerified });
    const again = await t.post('/api/auth/verify-email-from-link', body, { ip: '192.0.2.44' });
    expect(again.json()).toEqual({ success: true, message: accountMessages.alreadyVerified });
    const guessed = await t.post('/api/auth/verify-email-from-link', { ...body, code: wrong(body.code!) });
    expect(guessed.statusCode).toBe(400);
    expect(guessed.json()).toEqual({ error: accountMessages.codeInvalid });

    expect((await t.post('/api/auth/login', { email: customer.email, password: customer.password }, { ip: '192.0.2.44' })).json()).toHaveProperty('token');
  });

  it('answers the link page its own messages for a link that lacks a part', async () => {
    const noEmail = await t.post('/api/auth/verify-email-from-link', { code: '123456' });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json()).toEqual({ error: v.linkEmailMissing });
    expect((await t.post('/api/auth/verify-email-from-link', { email: 'a@gmail.com', code: '' })).json()).toEqual({ error: v.linkCodeMissing });
    expect((await t.post('/api/auth/verify-email-from-link', { email: 'nobody@gmail.com', code: '123456' })).json()).toEqual({
      error: accountMessages.codeInvalid,
    });
  });

  it('keeps only a hash of the code', async () => {
    const customer = t.newCustomer();
    await t.post('/api/auth/register', customer);
    const code = codeIn(await t.sink.nextMail(customer.email));
    const rows = await t.database.db.select().from(accountCodes).where(eq(accountCodes.purpose, 'verify-email'));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.secretHash).not.toContain(code);
    }
  });

  it('voids a code after 5 wrong tries, and a resent code works', async () => {
    const customer = t.newCustomer();
    await t.post('/api/auth/register', customer);
    const code = codeIn(await t.sink.nextMail(customer.email));
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push((await t.post('/api/auth/verify-email', { email: customer.email, code: wrong(code) })).json());
    expect(answers.slice(0, 4)).toEqual(Array(4).fill({ error: accountMessages.codeInvalid }));
    expect(answers[4]).toEqual({ error: accountMessages.codeAttemptsExhausted });
    const right = await t.post('/api/auth/verify-email', { email: customer.email, code });
    expect(right.statusCode).toBe(400);
    expect(right.json()).toEqual({ error: accountMessages.codeAttemptsExhausted });

    await t.ageLastCode(customer.email, 'verify-email', 31);
    expect((await t.post('/api/auth/resend-verification', { email: customer.email })).json()).toEqual({ message: accountMessages.verificationEmailResent });
    const fresh = codeIn(await t.sink.nextMail(customer.email));
    expect((await t.post('/api/auth/verify-email', { email: customer.email, code: fresh })).json()).toEqual({ message: accountMessages.emailVerified });
  });

  it('refuses an expired code', async () => {
    const customer = t.newCustomer();
    await t.post('/api/auth/register', customer);
    const code = codeIn(await t.sink.nextMail(customer.email));
    await t.ageLastCode(customer.email, 'verify-email', 10 * 60 + 1);
    const late = await t.post('/api/auth/verify-email', { email: customer.email, code });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual({ error: accountMessages.codeExpired });
  });

  it('refuses a second resend within 30 s, with Retry-After; a resend voids the older code', async () => {
    const customer = t.newCustomer();
    await t.post('/api/auth/register', customer);
    const first = codeIn(await t.sink.nextMail(customer.email));

    expect((await t.post('/api/auth/resend-verification', { email: customer.email })).statusCode).toBe(200);
    const second = codeIn(await t.sink.nextMail(customer.email));

    const early = await t.post('/api/auth/resend-verification', { email: customer.email });
    expect(early.statusCode).toBe(429);
    const wait = Number(early.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(29);
    expect(wait).toBeLessThanOrEqual(30);
    expect(early.json()).toEqual({ error: accountMessages.resendTooSoon(wait) });

    if (second !== first) {
      expect((await t.post('/api/auth/verify-email', { email: customer.email, code: first })).json()).toEqual({ error: accountMessages.codeInvalid });
    }
    expect((await t.post('/api/auth/verify-email', { email: customer.email, code: second })).statusCode).toBe(200);
  });

  it('answers a resend for an unknown or verified e-mail like a success, and sends nothing', async () => {
    const verified = await t.verifiedCustomer();
    const mailsBefore = await t.mailsTo(verified.email);
    for (const email of ['never.registered@gmail.com', verified.email]) {
      const answer = await t.post('/api/auth/resend-verification', { email });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ message: accountMessages.verificationEmailResent });
    }
    expect(await t.mailsTo('never.registered@gmail.com')).toBe(0);
    expect(await t.mailsTo(verified.email)).toBe(mailsBefore);
  });

  it('refuses a taken e-mail or username (whatever its case) with 409', async () => {
    const taken = await t.verifiedCustomer();
    const other = t.newCustomer();
    const sameEmail = await t.post('/api/auth/register', { ...other, email: taken.email.toUpperCase() });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json()).toEqual({ error: v.emailTaken });
    const sameName = await t.post('/api/auth/register', { ...other, username: taken.username.toLowerCase() });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json()).toEqual({ error: v.usernameTaken });
  });

  it('answers availability, and the rule message for a value that breaks a rule', async () => {
    const taken = await t.verifiedCustomer();
    const check = async (field: 'username' | 'email', value: unknown) => {
      const response = await t.post(`/api/auth/check-${field}`, { [field]: value });
      return { status: response.statusCode, body: response.json() };
    };
    expect(await check('username', taken.username.toUpperCase())).toEqual({ status: 200, body: { available: false } });
    expect(await check('username', 'Fresh_Name.1')).toEqual({ status: 200, body: { available: true } });
    expect(await check('email', taken.email)).toEqual({ status: 200, body: { available: false } });
    expect(await check('email', 'Fresh.Person@GMAIL.com')).toEqual({ status: 200, body: { available: true } });
    expect(await check('username', 'x')).toEqual({ status: 400, body: { error: v.usernameTooShort } });
    expect(await check('email', 'someone@nowhere-provider.zz')).toEqual({ status: 400, body: { error: v.emailProvider } });
  });

  it('answers every sign-up rule of SPEC §5 with its exact message', async () => {
    const good = t.newCustomer();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ username: undefined }, v.usernameRequired],
      [{ username: 'ab' }, v.usernameTooShort],
      [{ username: 'a'.repeat(21) }, v.usernameTooLong],
      [{ username: '1player' }, v.usernameStart],
      [{ username: 'bad name' }, v.usernameCharacters],
      [{ username: 'player-one' }, v.usernameCharacters],
      [{ username: 'Admin' }, v.usernameReserved('admin')],
      [{ username: 'support_team' }, v.usernameReserved('support')],
      [{ username: 'fuckface' }, v.usernameOffensive],
      [{ email: undefined }, v.emailRequired],
      [{ email: '' }, v.emailRequired],
      [{ email: 'player.gmail.com' }, v.emailNeedsAt],
      [{ email: 'player@gmail' }, v.emailFormat],
      [{ email: 'player@unknown-mail-host.zz' }, v.emailProvider],
      [{ password: undefined }, v.passwordRequired],
      [{ password: 'Ab1' }, v.passwordTooShort],
      [{ password: 'secret123' }, v.passwordUppercase],
      [{ password: 'fifteen chars!!' }, v.passwordUppercase],
    ];
    for (const [change, message] of cases) {
      const response = await t.post('/api/auth/register', { ...good, ...change });
      expect({ change, status: response.statusCode, body: response.json() }).toEqual({ change, status: 400, body: { error: message } });
    }
  });

  it('takes a passphrase of 16 or more characters without an uppercase letter (decision 017)', async () => {
    const customer = { ...t.newCustomer(), password: 'correct horse battery staple' };
    const registered = await t.post('/api/auth/register', customer);
    expect(registered.statusCode).toBe(201);
    expect(registered.json()).toEqual({ message: accountMessages.registered });
  });

  it('refuses one of the 10 000 most common passwords whatever its case, after the SPEC rules (decision 017)', async () => {
    const good = t.newCustomer();
    for (const password of ['Password1', 'PASSWORD123', 'Iloveyou1', 'Leavemealone']) {
      const response = await t.post('/api/auth/register', { ...good, password });
      expect({ password, status: response.statusCode, body: response.json() }).toEqual({ password, status: 400, body: { error: v.passwordCommon } });
    }
    // A password that also breaks SPEC §5 gets SPEC's message first.
    expect((await t.post('/api/auth/register', { ...good, password: 'password1' })).json()).toEqual({ error: v.passwordUppercase });
    expect((await t.post('/api/auth/register', good)).statusCode).toBe(201);
  });

  it('asks for a complete 6-digit code', async () => {
    for (const code of ['12345', '12345a', '']) {
      const response = await t.post('/api/auth/verify-email', { email: 'someone@gmail.com', code }, { ip: HOME_IP });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: v.codeIncomplete });
    }
  });
});
