// The authenticator app (issue 30) through the real app: set-up behind the password, sign-in's second
// step with its drift window, single use, five tries and the decoy a hidden wrong password gets,
// recovery codes, turning it off, and the security mails each change sends.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { generateTOTP } from '@epic-web/totp';
import { securityMessages, type LoginAnswer, type RecoveryCodes, type TotpSetup } from '@keystore/contract';
import { totpFactors } from './schema.ts';
import { authTestApp, HOME_IP, type AuthTestApp } from '../auth/test-kit.ts';

let t: AuthTestApp;
beforeAll(async () => {
  t = await authTestApp();
});
afterAll(() => t.close());

const TRAVEL_IP = '203.0.113.40';

/** The app's code for `secret`, `offsetSeconds` from now (the clock read through a faked Date). */
async function codeFor(secret: string, offsetSeconds = 0): Promise<string> {
  if (offsetSeconds === 0) return (await generateTOTP({ secret })).otp;
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + offsetSeconds * 1000 });
  try {
    return (await generateTOTP({ secret })).otp;
  } finally {
    vi.useRealTimers();
  }
}

/** A verified customer with the app on: their token, the secret and the recovery codes. */
async function customerWithTotp() {
  const customer = await t.verifiedCustomer();
  const token = await t.login(customer.email, customer.password);
  const setup = await t.post('/api/auth/totp/setup', { password: customer.password }, { token });
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json<TotpSetup>();
  const enabled = await t.post('/api/auth/totp/enable', { code: await codeFor(secret) }, { token });
  expect(enabled.statusCode).toBe(200);
  expect((await t.sink.nextMail(customer.email)).subject).toMatch(/Authenticator app turned on/);
  return { ...customer, token, secret, recoveryCodes: enabled.json<RecoveryCodes>().recoveryCodes };
}

/** Signs in with the password and answers the second step's challenge. */
async function challengeFor(email: string, password: string, ip = HOME_IP): Promise<string> {
  const answer = (await t.post('/api/auth/login', { email, password }, { ip })).json<LoginAnswer>();
  expect(answer).toMatchObject({ twoFactorRequired: true, method: 'totp' });
  return (answer as { challenge: string }).challenge;
}

describe('the authenticator app', () => {
  it('is set up behind the password, with a QR code, and turned on by its first code with 10 recovery codes', async () => {
    const customer = await t.verifiedCustomer();
    const token = await t.login(customer.email, customer.password);
    expect((await t.post('/api/auth/totp/setup', { password: 'Wrong-pass1' }, { token })).json()).toEqual({ error: securityMessages.passwordWrong });
    expect((await t.post('/api/auth/totp/setup', { password: customer.password })).statusCode).toBe(401);

    const setup = (await t.post('/api/auth/totp/setup', { password: customer.password }, { token })).json<TotpSetup>();
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauthUri).toMatch(/^otpauth:\/\/totp\/Keystore:.+\?.*secret=/);
    expect(setup.qrSvg).toContain('<svg');
    // The secret is stored sealed, never as typed into an app.
    const [row] = await t.database.db.select().from(totpFactors);
    expect(row?.secretSealed).not.toContain(setup.secret);

    expect((await t.post('/api/auth/totp/enable', { code: '000000' }, { token })).json()).toEqual({ error: securityMessages.codeWrong });
    const enabled = await t.post('/api/auth/totp/enable', { code: await codeFor(setup.secret) }, { token });
    expect(enabled.statusCode).toBe(200);
    const { recoveryCodes } = enabled.json<RecoveryCodes>();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    expect((await t.sink.nextMail(customer.email)).subject).toMatch(/Authenticator app turned on/);
    expect((await t.post('/api/auth/totp/setup', { password: customer.password }, { token })).statusCode).toBe(409);

    const overview = await t.app.inject({ method: 'GET', url: '/api/auth/security', headers: { authorization: `Bearer ${token}` } });
    expect(overview.json()).toMatchObject({ totp: true, recoveryCodesLeft: 10, passkeys: [] });
  });

  it('asks for its code at sign-in instead of mailing one, even from a new address, and takes each code once', async () => {
    const customer = await customerWithTotp();
    const mailsBefore = await t.mailsTo(customer.email);
    const challenge = await challengeFor(customer.email, customer.password, TRAVEL_IP);
    expect(await t.mailsTo(customer.email)).toBe(mailsBefore);

    // The current step's code turned the app on: the next step's (within the drift window) signs in.
    const code = await codeFor(customer.secret, 30);
    const signedIn = await t.post('/api/auth/login/totp', { challenge, code }, { ip: TRAVEL_IP });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ token: expect.any(String), user: { email: customer.email } });
    // A sign-in from an address the account had not used is told by a security mail (no code was mailed).
    expect((await t.sink.nextMail(customer.email)).subject).toMatch(/New sign-in/);
    // The challenge is spent, and the same code opens no other.
    expect((await t.post('/api/auth/login/totp', { challenge, code })).json()).toEqual({ error: securityMessages.challengeExpired });
    const again = await challengeFor(customer.email, customer.password);
    expect((await t.post('/api/auth/login/totp', { challenge: again, code })).json()).toEqual({ error: securityMessages.codeWrong });
  });

  it('takes a code one step early or late (clock drift), not two', async () => {
    const customer = await customerWithTotp();
    // Forget the step the set-up took, so the window's earlier step is not refused as a replay.
    const user = await t.app.users.findByEmail(customer.email);
    await t.database.db.update(totpFactors).set({ lastStep: 0 }).where(eq(totpFactors.userId, user!.id));
    const late = await codeFor(customer.secret, -30);
    const early = await codeFor(customer.secret, 30);
    const stale = await codeFor(customer.secret, -90);
    const current = await codeFor(customer.secret);
    // Codes that happen to equal the current one would prove nothing about the window.
    if (new Set([late, early, stale, current]).size < 4) return;

    expect((await t.post('/api/auth/login/totp', { challenge: await challengeFor(customer.email, customer.password), code: stale })).statusCode).toBe(400);
    expect((await t.post('/api/auth/login/totp', { challenge: await challengeFor(customer.email, customer.password), code: late })).statusCode).toBe(200);
    // A step later than the last taken still opens; the step taken before it no longer does.
    expect((await t.post('/api/auth/login/totp', { challenge: await challengeFor(customer.email, customer.password), code: early })).statusCode).toBe(200);
    expect((await t.post('/api/auth/login/totp', { challenge: await challengeFor(customer.email, customer.password), code: current })).statusCode).toBe(400);
  });

  it('ends a challenge after 5 wrong codes: even the right one must start again', async () => {
    const customer = await customerWithTotp();
    const challenge = await challengeFor(customer.email, customer.password);
    const answers: string[] = [];
    for (let i = 0; i < 5; i += 1) answers.push((await t.post('/api/auth/login/totp', { challenge, code: '000000' })).json<{ error: string }>().error);
    expect(answers.slice(0, 4)).toEqual(Array(4).fill(securityMessages.codeWrong));
    expect(answers[4]).toBe(securityMessages.challengeExhausted);
    expect((await t.post('/api/auth/login/totp', { challenge, code: await codeFor(customer.secret) })).json()).toEqual({ error: securityMessages.challengeExhausted });
    expect((await t.post('/api/auth/login/totp', { challenge: 'x'.repeat(43), code: '123456' })).json()).toEqual({ error: securityMessages.challengeExpired });
  });

  it('gives a mailed new-device code no more than the password: with the app on, its code still comes next, and no code is mailed again', async () => {
    // A sign-in from a new address before the app was on mails a code; the app is turned on meanwhile.
    const customer = await t.verifiedCustomer();
    expect((await t.post('/api/auth/login', { email: customer.email, password: customer.password }, { ip: TRAVEL_IP })).json()).toMatchObject({ method: 'email' });
    const { codeIn } = await import('../../test/smtp-sink.ts');
    const mailed = codeIn(await t.sink.nextMail(customer.email));
    const token = await t.login(customer.email, customer.password);
    const setup = (await t.post('/api/auth/totp/setup', { password: customer.password }, { token })).json<TotpSetup>();
    expect((await t.post('/api/auth/totp/enable', { code: await codeFor(setup.secret) }, { token })).statusCode).toBe(200);
    const mailsBefore = await t.mailsTo(customer.email);
    expect((await t.post('/api/auth/resend-new-device-code', { email: customer.email }, { ip: TRAVEL_IP })).statusCode).toBe(200);
    expect(await t.mailsTo(customer.email)).toBe(mailsBefore);
    const answer = (await t.post('/api/auth/verify-new-device', { email: customer.email, code: mailed }, { ip: TRAVEL_IP })).json<LoginAnswer>();
    expect(answer).toMatchObject({ twoFactorRequired: true, method: 'totp', challenge: expect.any(String) });
    expect(answer).not.toHaveProperty('token');
  });

  it('takes one try per code sent at once: eight wrong codes together use the five a challenge has', async () => {
    const customer = await customerWithTotp();
    const challenge = await challengeFor(customer.email, customer.password);
    const answers = await Promise.all(Array.from({ length: 8 }, () => t.post('/api/auth/login/totp', { challenge, code: '000000' })));
    const errors = answers.map((answer) => answer.json<{ error: string }>().error);
    expect(errors.filter((error) => error === securityMessages.codeWrong).length).toBeLessThanOrEqual(4);
    expect((await t.post('/api/auth/login/totp', { challenge, code: await codeFor(customer.secret, 30) })).json()).toEqual({ error: securityMessages.challengeExhausted });
  });

  it('asks for the app code too before a passkey is added, when the app is on', async () => {
    const customer = await customerWithTotp();
    expect((await t.post('/api/auth/passkeys/options', { password: customer.password }, { token: customer.token })).json()).toEqual({ error: securityMessages.codeRequired });
    expect((await t.post('/api/auth/passkeys/options', { password: customer.password, code: await codeFor(customer.secret, 30) }, { token: customer.token })).statusCode).toBe(200);
  });

  it('throttles wrong codes per account across challenges, with 429', async () => {
    const customer = await customerWithTotp();
    let status = 0;
    for (let i = 0; i < 20 && status !== 429; i += 1) {
      const challenge = await challengeFor(customer.email, customer.password, `198.51.100.${100 + i}`);
      status = (await t.post('/api/auth/login/totp', { challenge, code: '000000' }, { ip: `198.51.100.${100 + i}` })).statusCode;
    }
    expect(status).toBe(429);
  });

  it('signs in once with each recovery code, tells the owner, and regenerates them behind the password and a code', async () => {
    const customer = await customerWithTotp();
    const [first, second] = customer.recoveryCodes;
    const signedIn = await t.post('/api/auth/login/totp', { challenge: await challengeFor(customer.email, customer.password), recoveryCode: ` ${first!.toUpperCase()} ` });
    expect(signedIn.statusCode).toBe(200);
    expect((await t.sink.nextMail(customer.email)).subject).toMatch(/recovery code was used/);
    expect((await t.post('/api/auth/login/totp', { challenge: await challengeFor(customer.email, customer.password), recoveryCode: first })).json()).toEqual({
      error: securityMessages.codeWrong,
    });

    expect((await t.post('/api/auth/recovery-codes', { password: customer.password, code: '000000' }, { token: customer.token })).statusCode).toBe(400);
    const fresh = await t.post('/api/auth/recovery-codes', { password: customer.password, code: await codeFor(customer.secret, 30) }, { token: customer.token });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json<RecoveryCodes>().recoveryCodes).toHaveLength(10);
    // The old codes are void.
    expect((await t.post('/api/auth/login/totp', { challenge: await challengeFor(customer.email, customer.password), recoveryCode: second })).statusCode).toBe(400);
    const newCode = fresh.json<RecoveryCodes>().recoveryCodes[0]!;
    expect((await t.post('/api/auth/login/totp', { challenge: await challengeFor(customer.email, customer.password), recoveryCode: newCode })).statusCode).toBe(200);
  });

  it('is turned off only with the password and a current code', async () => {
    const customer = await customerWithTotp();
    const code = await codeFor(customer.secret, 30);
    expect((await t.post('/api/auth/totp/disable', { password: 'Wrong-pass1', code }, { token: customer.token })).json()).toEqual({ error: securityMessages.passwordWrong });
    expect((await t.post('/api/auth/totp/disable', { password: customer.password, code: '000000' }, { token: customer.token })).json()).toEqual({
      error: securityMessages.codeWrong,
    });
    expect((await t.post('/api/auth/totp/disable', { password: customer.password }, { token: customer.token })).statusCode).toBe(400);
    expect((await t.post('/api/auth/totp/disable', { password: customer.password, code }, { token: customer.token })).statusCode).toBe(200);
    // Signing in from a trusted address is one step again.
    expect(await t.login(customer.email, customer.password)).toBeTruthy();
  });

  it('answers a wrong password on a guessed-at account with the same second step, whose challenge no code opens', async () => {
    const customer = await customerWithTotp();
    // Wrong passwords from addresses the account never proved: past 10, guessing is hidden.
    for (let i = 0; i < 10; i += 1) await t.post('/api/auth/login', { email: customer.email, password: `Guess-${i}xx` }, { ip: `192.0.2.${10 + i}` });
    const wrong = (await t.post('/api/auth/login', { email: customer.email, password: 'Guess-last1' }, { ip: '192.0.2.99' })).json<LoginAnswer>();
    const right = (await t.post('/api/auth/login', { email: customer.email, password: customer.password }, { ip: '192.0.2.98' })).json<LoginAnswer>();
    expect(Object.keys(wrong).sort()).toEqual(Object.keys(right).sort());
    expect(wrong).toMatchObject({ twoFactorRequired: true, method: 'totp', message: securityMessages.secondStepTotp });
    const decoy = (wrong as { challenge: string }).challenge;
    expect((await t.post('/api/auth/login/totp', { challenge: decoy, code: await codeFor(customer.secret) }, { ip: '192.0.2.99' })).json()).toEqual({
      error: securityMessages.codeWrong,
    });
  });

  it('refuses a malformed code or challenge at the schema', async () => {
    expect((await t.post('/api/auth/login/totp', { challenge: 'short', code: '123456' })).statusCode).toBe(400);
    expect((await t.post('/api/auth/login/totp', { challenge: 'x'.repeat(43) })).json()).toEqual({ error: securityMessages.codeOrRecoveryRequired });
    expect((await t.post('/api/auth/login/totp', { challenge: 'x'.repeat(43), code: '12345a' })).statusCode).toBe(400);
    expect((await t.post('/api/auth/login/totp', { challenge: 'x'.repeat(43), code: '123456', recoveryCode: 'abcde-12345' })).statusCode).toBe(400);
  });
});

describe('keys:reencrypt', () => {
  it('lists an authenticator secret not under the current key, and rewrites it only if unchanged', async () => {
    const { sealedTotpSecrets } = await import('./ports.ts');
    const customer = await customerWithTotp();
    const user = await t.app.users.findByEmail(customer.email);
    const rows = await sealedTotpSecrets.notUnder(t.database.db, 'v2.none.', '', 1000);
    const mine = rows.find((row) => row.id === `totp:${user!.id}`);
    expect(mine).toBeDefined();
    expect(await sealedTotpSecrets.replace(t.database.db, mine!.id, 'not-what-is-stored', 'x')).toBe(false);
    const [before] = await t.database.db.select().from(totpFactors).where(eq(totpFactors.userId, user!.id));
    expect(await sealedTotpSecrets.replace(t.database.db, mine!.id, before!.secretSealed, before!.secretSealed)).toBe(true);
  });
});

describe('a second factor the owner requires', () => {
  it('makes an admin without one set up the app at sign-in before anything else, then asks for it', async () => {
    const customer = await t.verifiedCustomer();
    const user = await t.app.users.findByEmail(customer.email);
    await t.app.users.setRole(user!.id, 'admin');
    await t.app.security.setPolicy({ admins: true });
    try {
      const answer = (await t.post('/api/auth/login', { email: customer.email, password: customer.password })).json<LoginAnswer>();
      expect(answer).toMatchObject({ twoFactorRequired: true, method: 'setup', message: securityMessages.setupRequired });
      const challenge = (answer as { challenge: string }).challenge;
      // The set-up challenge opens nothing else: not the code step.
      expect((await t.post('/api/auth/login/totp', { challenge, code: '123456' })).json()).toEqual({ error: securityMessages.challengeExpired });

      const setup = (await t.post('/api/auth/login/setup/totp', { challenge })).json<TotpSetup>();
      expect(setup.otpauthUri).toContain('otpauth://totp/');
      expect((await t.post('/api/auth/login/setup/totp/enable', { challenge, code: '000000' })).json()).toEqual({ error: securityMessages.codeWrong });
      const done = await t.post('/api/auth/login/setup/totp/enable', { challenge, code: await codeFor(setup.secret) });
      expect(done.statusCode).toBe(200);
      expect(done.json()).toMatchObject({ recoveryCodes: expect.any(Array), session: { token: expect.any(String), user: { role: 'admin' } } });
      // Spent: the challenge sets nothing up again.
      expect((await t.post('/api/auth/login/setup/totp', { challenge })).json()).toEqual({ error: securityMessages.challengeExpired });
      // From now on the app's code is the second step, and the last factor cannot be taken away.
      await challengeFor(customer.email, customer.password);
      const token = done.json<{ session: { token: string } }>().session.token;
      expect((await t.post('/api/auth/totp/disable', { password: customer.password, code: await codeFor(setup.secret, 30) }, { token })).json()).toEqual({
        error: securityMessages.lastFactorRequired,
      });
    } finally {
      await t.app.security.setPolicy({ admins: false });
    }
  });

  it('leaves customers alone, and admins too while the owner does not require it', async () => {
    const customer = await t.verifiedCustomer();
    await t.app.security.setPolicy({ admins: true });
    try {
      expect(await t.login(customer.email, customer.password)).toBeTruthy();
    } finally {
      await t.app.security.setPolicy({ admins: false });
    }
    const admin = await t.verifiedCustomer();
    await t.app.users.setRole((await t.app.users.findByEmail(admin.email))!.id, 'admin');
    expect(await t.login(admin.email, admin.password)).toBeTruthy();
  });
});
