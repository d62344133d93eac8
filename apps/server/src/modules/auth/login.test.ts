import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SignJWT, UnsecuredJWT } from 'jose';
import { accountMessages, type Session } from '@keystore/contract';
import { hashPassword, passwordMatches } from '../../platform/passwords.ts';
import { codeIn } from '../../test/smtp-sink.ts';
import { authTestApp, HOME_IP, type AuthTestApp } from './test-kit.ts';

let t: AuthTestApp;
beforeAll(async () => {
  t = await authTestApp();
});
afterAll(() => t.close());

const TRAVEL_IP = '203.0.113.99';

describe('login', () => {
  it('answers the same 401 for a wrong password and an unknown e-mail, after a password check in both cases', async () => {
    const customer = await t.verifiedCustomer();
    // What one argon2id check costs here at least (the fastest of a few, so a busy machine cannot
    // inflate it): both failures must spend about that long.
    const stored = await hashPassword('Something1');
    let oneCheck = Infinity;
    for (let i = 0; i < 3; i += 1) {
      const started = performance.now();
      await passwordMatches(stored, 'Other1');
      oneCheck = Math.min(oneCheck, performance.now() - started);
    }

    for (const body of [
      { email: customer.email, password: 'Wrong123' },
      { email: 'nobody.here@gmail.com', password: customer.password },
    ]) {
      const started = performance.now();
      const response = await t.post('/api/auth/login', body);
      const took = performance.now() - started;
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: accountMessages.invalidCredentials });
      expect(took).toBeGreaterThan(oneCheck * 0.5);
    }
  });

  it('asks for a code from a new address, then signs in with it and trusts the address', async () => {
    const customer = await t.verifiedCustomer();
    const first = await t.post('/api/auth/login', customer, { ip: TRAVEL_IP });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ twoFactorRequired: true, method: 'email', message: accountMessages.newDeviceCodeSent });

    const mail = await t.sink.nextMail(customer.email);
    expect(mail.text).toContain(TRAVEL_IP);
    const code = codeIn(mail);

    const wrongCode = await t.post('/api/auth/verify-new-device', { email: customer.email, code: code === '000000' ? '000001' : '000000' }, { ip: TRAVEL_IP });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json()).toEqual({ error: accountMessages.codeInvalid });

    const verified = await t.post('/api/auth/verify-new-device', { email: customer.email, code }, { ip: TRAVEL_IP });
    expect(verified.statusCode).toBe(200);
    const session = verified.json<Session>();
    expect(session.user.email).toBe(customer.email);
    expect(session.token).toBeTruthy();

    const used = await t.post('/api/auth/verify-new-device', { email: customer.email, code }, { ip: TRAVEL_IP });
    expect(used.json()).toEqual({ error: accountMessages.codeInvalid });
    expect(await t.login(customer.email, customer.password, TRAVEL_IP)).toBeTruthy();
  });

  it('resends a new-device code only for a login waiting on one, not within 30 s', async () => {
    const idle = await t.verifiedCustomer();
    const idleMails = await t.mailsTo(idle.email);
    const nothingPending = await t.post('/api/auth/resend-new-device-code', { email: idle.email }, { ip: TRAVEL_IP });
    expect(nothingPending.json()).toEqual({ message: accountMessages.codeResent });
    expect(await t.mailsTo(idle.email)).toBe(idleMails);

    const customer = await t.verifiedCustomer();
    const resend = () => t.post('/api/auth/resend-new-device-code', { email: customer.email }, { ip: TRAVEL_IP });
    const mailsBefore = await t.mailsTo(customer.email);
    await t.post('/api/auth/login', customer, { ip: TRAVEL_IP });
    const firstCode = codeIn(await t.sink.nextMail(customer.email));
    expect((await resend()).json()).toEqual({ message: accountMessages.codeResent });
    const secondCode = codeIn(await t.sink.nextMail(customer.email));
    expect(await t.mailsTo(customer.email)).toBe(mailsBefore + 2);

    const early = await resend();
    expect(early.statusCode).toBe(429);
    expect(early.json()).toEqual({ error: accountMessages.resendTooSoon(Number(early.headers['retry-after'])) });

    if (secondCode !== firstCode) {
      expect((await t.post('/api/auth/verify-new-device', { email: customer.email, code: firstCode }, { ip: TRAVEL_IP })).statusCode).toBe(400);
    }
    expect((await t.post('/api/auth/verify-new-device', { email: customer.email, code: secondCode }, { ip: TRAVEL_IP })).statusCode).toBe(200);

    const stranger = await t.post('/api/auth/resend-new-device-code', { email: 'stranger.one@gmail.com' });
    expect(stranger.json()).toEqual({ message: accountMessages.codeResent });
    expect(await t.mailsTo('stranger.one@gmail.com')).toBe(0);
  });

  it('voids a new-device code after 5 wrong tries and refuses an expired one', async () => {
    const customer = await t.verifiedCustomer();
    await t.post('/api/auth/login', customer, { ip: TRAVEL_IP });
    const code = codeIn(await t.sink.nextMail(customer.email));
    const wrong = code === '999999' ? '999998' : '999999';
    for (let i = 0; i < 5; i += 1) await t.post('/api/auth/verify-new-device', { email: customer.email, code: wrong }, { ip: TRAVEL_IP });
    expect((await t.post('/api/auth/verify-new-device', { email: customer.email, code }, { ip: TRAVEL_IP })).json()).toEqual({
      error: accountMessages.codeAttemptsExhausted,
    });

    await t.post('/api/auth/login', customer, { ip: TRAVEL_IP });
    const next = codeIn(await t.sink.nextMail(customer.email));
    await t.ageLastCode(customer.email, 'new-device', 10 * 60 + 1);
    expect((await t.post('/api/auth/verify-new-device', { email: customer.email, code: next }, { ip: TRAVEL_IP })).json()).toEqual({
      error: accountMessages.codeExpired,
    });
  });

  it('ends the session on logout: the token stops working', async () => {
    const customer = await t.verifiedCustomer();
    const token = await t.login(customer.email, customer.password);
    const other = await t.login(customer.email, customer.password);
    const logout = await t.post('/api/auth/logout', undefined, { token });
    expect(logout.statusCode).toBe(204);
    expect(logout.body).toBe('');
    const again = await t.post('/api/auth/logout', undefined, { token });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ error: accountMessages.sessionExpired });
    // The same account's other device stays signed in.
    expect((await t.post('/api/auth/logout', undefined, { token: other })).statusCode).toBe(204);
  });

  it('refuses a missing, unsigned, foreign, expired or orphaned token with 401', async () => {
    const customer = await t.verifiedCustomer();
    const token = await t.login(customer.email, customer.password);
    const { sub, sid } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string; sid: string };
    const secret = new TextEncoder().encode(t.config.secrets.jwt);
    const signed = (claims: Record<string, unknown>, key: Uint8Array, exp: string | number = '1h') =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setExpirationTime(exp).sign(key);

    const cases: Array<[string | undefined, string]> = [
      [undefined, accountMessages.authRequired],
      ['not-a-token', accountMessages.authRequired],
      [new UnsecuredJWT({ sid }).setSubject(sub).setExpirationTime('1h').encode(), accountMessages.authRequired],
      [await signed({ sid }, new TextEncoder().encode('another-secret-another-secret-another')), accountMessages.authRequired],
      [await signed({ sid }, secret, Math.floor(Date.now() / 1000) - 60), accountMessages.sessionExpired],
      [await signed({ sid: 'no-such-session' }, secret), accountMessages.sessionExpired],
    ];
    for (const [candidate, message] of cases) {
      const response = await t.post('/api/auth/logout', undefined, candidate ? { token: candidate } : {});
      expect({ candidate, status: response.statusCode, body: response.json() }).toEqual({ candidate, status: 401, body: { error: message } });
    }
    // The real token still works: none of the above touched its session.
    expect((await t.post('/api/auth/logout', undefined, { token })).statusCode).toBe(204);
  });

  it('refuses a token once it expires, though it was accepted before', async () => {
    const customer = await t.verifiedCustomer();
    const token = await t.login(customer.email, customer.password);
    const { sub, sid } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string; sid: string };
    const expiresAt = Math.floor(Date.now() / 1000) + 60;
    const shortLived = await new SignJWT({ sid }).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setExpirationTime(expiresAt).sign(new TextEncoder().encode(t.config.secrets.jwt));
    const orders = () => t.app.inject({ url: '/api/orders', headers: { authorization: `Bearer ${shortLived}` } });
    expect((await orders()).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: (expiresAt + 1) * 1000 });
    try {
      const late = await orders();
      expect({ status: late.statusCode, body: late.json() }).toEqual({ status: 401, body: { error: accountMessages.sessionExpired } });
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks for the e-mail and the password', async () => {
    expect((await t.post('/api/auth/login', { password: 'Secret123' })).json()).toEqual({ error: 'Email is required' });
    expect((await t.post('/api/auth/login', { email: 'a@gmail.com', password: '' })).json()).toEqual({ error: 'Password is required' });
  });

  it('believes only the address our proxy appended to X-Forwarded-For, not one the client wrote', async () => {
    const customer = await t.verifiedCustomer(HOME_IP);
    // The client claims a trusted address; the proxy (one hop, TRUST_PROXY=1) appends the real one.
    const spoofed = await t.post('/api/auth/login', customer, { ip: `${HOME_IP}, ${TRAVEL_IP}` });
    expect(spoofed.json()).toEqual({ twoFactorRequired: true, method: 'email', message: accountMessages.newDeviceCodeSent });
    expect((await t.sink.nextMail(customer.email)).text).toContain(TRAVEL_IP);
    expect((await t.post('/api/auth/login', customer, { ip: `${TRAVEL_IP}, ${HOME_IP}` })).json()).toHaveProperty('token');
  });
});
