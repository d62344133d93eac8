// Passkeys (issue 30) through the real app, answered by a software authenticator: registered behind
// the password, a sign-in alone (two factors: no mailed code), each challenge once, this store's
// origin only; and the signed-in devices: listed, signed out one by one or all others.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityMessages, type PasskeyOptions, type SecurityOverview, type SignedInDevice } from '@keystore/contract';
import { SoftAuthenticator } from '../../test/soft-authenticator.ts';
import { authTestApp, type AuthTestApp } from '../auth/test-kit.ts';

let t: AuthTestApp;
beforeAll(async () => {
  t = await authTestApp();
});
afterAll(() => t.close());

const ORIGIN = 'https://shop.example';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

/** A signed-in customer with a passkey named `name` on a new software authenticator. */
async function customerWithPasskey(name = 'My laptop') {
  const customer = await t.verifiedCustomer();
  const token = await t.login(customer.email, customer.password);
  const authenticator = new SoftAuthenticator();
  const options = (await t.post('/api/auth/passkeys/options', { password: customer.password }, { token })).json<PasskeyOptions>();
  const added = await t.post('/api/auth/passkeys', { challengeId: options.challengeId, name, credential: authenticator.create(options.options, ORIGIN) }, { token });
  expect(added.statusCode).toBe(201);
  return { ...customer, token, authenticator };
}

async function passkeyLogin(authenticator: SoftAuthenticator, origin = ORIGIN, ip?: string) {
  const { challengeId, options } = (await t.post('/api/auth/login/passkey/options')).json<PasskeyOptions>();
  const credential = authenticator.get(options, origin);
  return { response: await t.post('/api/auth/login/passkey', { challengeId, credential }, { ip }), challengeId, credential };
}

describe('passkeys', () => {
  it('are registered behind the password, named, listed, and the owner is told', async () => {
    const customer = await t.verifiedCustomer();
    const token = await t.login(customer.email, customer.password);
    expect((await t.post('/api/auth/passkeys/options', { password: 'Wrong-pass1' }, { token })).json()).toEqual({ error: securityMessages.passwordWrong });
    const options = (await t.post('/api/auth/passkeys/options', { password: customer.password }, { token })).json<PasskeyOptions>();
    expect(options.options).toMatchObject({ rp: { id: 'shop.example' }, authenticatorSelection: { residentKey: 'required', userVerification: 'required' } });

    const authenticator = new SoftAuthenticator();
    const credential = authenticator.create(options.options, ORIGIN);
    expect((await t.post('/api/auth/passkeys', { challengeId: options.challengeId, name: '', credential }, { token })).json()).toEqual({
      error: securityMessages.passkeyNameRequired,
    });
    expect((await t.post('/api/auth/passkeys', { challengeId: options.challengeId, name: 'Phone', credential }, { token })).statusCode).toBe(201);
    // Its challenge is spent.
    expect((await t.post('/api/auth/passkeys', { challengeId: options.challengeId, name: 'Again', credential }, { token })).json()).toEqual({
      error: securityMessages.challengeExpired,
    });
    const overview = (await get('/api/auth/security', token)).json<SecurityOverview>();
    expect(overview.passkeys).toEqual([{ _id: expect.any(String), name: 'Phone', createdAt: expect.any(String), lastUsedAt: null }]);
    expect((await t.sink.nextMail(customer.email)).subject).toMatch(/passkey was added/);
  });

  it('refuses a passkey made for another site or on another origin', async () => {
    const customer = await t.verifiedCustomer();
    const token = await t.login(customer.email, customer.password);
    for (const [origin, rpId] of [
      ['https://evil.example', 'shop.example'],
      [ORIGIN, 'evil.example'],
    ] as const) {
      const options = (await t.post('/api/auth/passkeys/options', { password: customer.password }, { token })).json<PasskeyOptions>();
      const credential = new SoftAuthenticator().create(options.options, origin, rpId);
      expect((await t.post('/api/auth/passkeys', { challengeId: options.challengeId, name: 'Phishing', credential }, { token })).json()).toEqual({
        error: securityMessages.passkeyRefused,
      });
    }
  });

  it('signs in alone from a new address: no mailed code, no authenticator code, each challenge once', async () => {
    const customer = await customerWithPasskey();
    await t.sink.nextMail(customer.email);
    const { response, challengeId, credential } = await passkeyLogin(customer.authenticator, ORIGIN, '203.0.113.77');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ token: expect.any(String), user: { email: customer.email } });
    expect((await t.sink.nextMail(customer.email)).subject).toMatch(/New sign-in/);
    // The same answer again: its challenge is spent.
    expect((await t.post('/api/auth/login/passkey', { challengeId, credential })).json()).toEqual({ error: securityMessages.challengeExpired });
    // Another site's page cannot use it.
    expect((await passkeyLogin(customer.authenticator, 'https://evil.example')).response.json()).toEqual({ error: securityMessages.passkeyRefused });
    // An unknown passkey signs nobody in.
    expect((await passkeyLogin(new SoftAuthenticator())).response.json()).toEqual({ error: securityMessages.passkeyUnknown });
  });

  it('stops signing in once removed', async () => {
    const customer = await customerWithPasskey('Old key');
    const [key] = (await get('/api/auth/security', customer.token)).json<SecurityOverview>().passkeys;
    const removed = await t.app.inject({ method: 'DELETE', url: `/api/auth/passkeys/${key!._id}`, headers: { authorization: `Bearer ${customer.token}` } });
    expect(removed.statusCode).toBe(204);
    expect((await passkeyLogin(customer.authenticator)).response.json()).toEqual({ error: securityMessages.passkeyUnknown });
    const again = await t.app.inject({ method: 'DELETE', url: `/api/auth/passkeys/${key!._id}`, headers: { authorization: `Bearer ${customer.token}` } });
    expect(again.json()).toEqual({ error: securityMessages.passkeyNotFound });
  });
});

describe('signed-in devices', () => {
  const loginWith = async (email: string, password: string, userAgent: string) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, headers: { 'x-forwarded-for': '198.51.100.7', 'user-agent': userAgent } });
    return response.json<{ token: string }>().token;
  };

  it('lists each device with its browser, system and masked address, the current one marked', async () => {
    const customer = await t.verifiedCustomer();
    const windows = await loginWith(customer.email, customer.password, CHROME);
    await loginWith(customer.email, customer.password, FIREFOX);
    const devices = (await get('/api/auth/sessions', windows)).json<SignedInDevice[]>();
    expect(devices).toHaveLength(2);
    expect(devices.find((device) => device.current)).toMatchObject({ browser: 'Chrome 130', os: 'Windows 10', place: '198.51.100.x' });
    expect(devices.find((device) => !device.current)).toMatchObject({ browser: 'Firefox 128', os: 'Linux' });
    // Being used writes "last seen".
    expect(devices.find((device) => device.current)!.lastSeenAt >= devices.find((device) => device.current)!.createdAt).toBe(true);
  });

  it('signs one device out, or every other, and their tokens stop working', async () => {
    const customer = await t.verifiedCustomer();
    const here = await loginWith(customer.email, customer.password, CHROME);
    const [phone, tablet] = [await loginWith(customer.email, customer.password, FIREFOX), await loginWith(customer.email, customer.password, FIREFOX)];
    const other = (await get('/api/auth/sessions', here)).json<SignedInDevice[]>().filter((device) => !device.current);
    expect(other).toHaveLength(2);

    const out = await t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${other[0]!._id}`, headers: { authorization: `Bearer ${here}` } });
    expect(out.statusCode).toBe(204);
    const gone = await t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${other[0]!._id}`, headers: { authorization: `Bearer ${here}` } });
    expect(gone.json()).toEqual({ error: securityMessages.sessionNotFound });
    expect([(await get('/api/auth/sessions', phone)).statusCode, (await get('/api/auth/sessions', tablet)).statusCode].sort()).toEqual([200, 401]);

    // Another account cannot sign this one's devices out.
    const stranger = await t.verifiedCustomer();
    const strangerToken = await t.login(stranger.email, stranger.password);
    const foreign = await t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${other[1]!._id}`, headers: { authorization: `Bearer ${strangerToken}` } });
    expect(foreign.statusCode).toBe(404);

    expect((await t.post('/api/auth/sessions/revoke-others', {}, { token: here })).json()).toEqual({ message: securityMessages.otherSessionsRevoked });
    expect((await get('/api/auth/sessions', phone)).statusCode).toBe(401);
    expect((await get('/api/auth/sessions', tablet)).statusCode).toBe(401);
    expect((await get('/api/auth/sessions', here)).json<SignedInDevice[]>()).toHaveLength(1);
    expect((await t.sink.nextMail(customer.email)).subject).toMatch(/Devices were signed out/);
  });
});
