import { createConnection } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { accountMessages } from '@keystore/contract';
import type { Database } from '../db/client.ts';
import { AUTH_LIMITS, FREE_WRONG_PASSWORDS } from '../modules/auth/limits.ts';
import { authTestApp, HOME_IP, type AuthTestApp } from '../modules/auth/test-kit.ts';
import { buildTestApp, freshDatabase, type TestApp } from '../test/helper.ts';

const REDIS_URL = 'redis://127.0.0.1:6379';
/** The Redis test runs where a Redis answers (the CI machine may have none). */
const redisAnswers = await new Promise<boolean>((resolve) => {
  const socket = createConnection(6379, '127.0.0.1');
  const answer = (up: boolean) => {
    socket.destroy();
    resolve(up);
  };
  socket.once('connect', () => answer(true)).once('error', () => answer(false));
  socket.setTimeout(500, () => answer(false));
});

function expectTooMany(response: { statusCode: number; headers: Record<string, unknown>; json: () => unknown }, windowSeconds: number): void {
  expect(response.statusCode).toBe(429);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(response.json()).toEqual({ error: accountMessages.tooManyRequests(retryAfter) });
}

describe('rate limits', () => {
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await authTestApp();
  });
  afterAll(() => t.close());

  it('lets the owner in while an account is guessed at from everywhere, and tells the guessers nothing', async () => {
    const victim = await t.verifiedCustomer();
    const { limit } = AUTH_LIMITS.loginFailuresPerAccount;
    for (let i = 0; i < limit; i += 1) {
      const guess = await t.post('/api/auth/login', { email: victim.email, password: `Guess${i}x` }, { ip: `192.0.2.${i + 1}` });
      expect(guess.statusCode).toBe(401);
    }
    // Past the limit a guess from an address the account has not proved gets the new-device answer, and no mail goes out.
    const mailsBefore = await t.mailsTo(victim.email);
    const blind = await t.post('/api/auth/login', { email: victim.email, password: 'Guess99x' }, { ip: '192.0.2.150' });
    expect(blind.statusCode).toBe(200);
    expect(blind.json()).toEqual({ twoFactorRequired: true, method: 'email', message: accountMessages.newDeviceCodeSent });
    expect(await t.mailsTo(victim.email)).toBe(mailsBefore);
    expect((await t.post('/api/auth/verify-new-device', { email: victim.email, code: '000000' }, { ip: '192.0.2.150' })).statusCode).toBe(400);
    // An unknown e-mail answers the same, so the answer does not tell who has an account either.
    expect((await t.post('/api/auth/login', { email: 'nobody.here@gmail.com', password: 'Guess99x' }, { ip: '192.0.2.151' })).statusCode).toBe(401);

    // The owner: at once from their own address (the old limit answered 429 here for 15 minutes) …
    expect(await t.login(victim.email, victim.password, HOME_IP)).toBeTruthy();
    // … and from a new address with the e-mailed code, the second factor.
    const away = await t.post('/api/auth/login', { email: victim.email, password: victim.password }, { ip: '192.0.2.200' });
    expect(away.json()).toEqual({ twoFactorRequired: true, method: 'email', message: accountMessages.newDeviceCodeSent });
    expect(await t.mailsTo(victim.email)).toBe(mailsBefore + 1);
  });

  it('makes a run of wrong passwords from one address wait longer and longer, and only that address', async () => {
    const customer = await t.verifiedCustomer();
    const attacker = '192.0.2.77';
    const guess = () => t.post('/api/auth/login', { email: customer.email, password: 'WrongPass1' }, { ip: attacker });
    for (let i = 0; i < FREE_WRONG_PASSWORDS; i += 1) expect((await guess()).statusCode).toBe(401);
    const first = await guess();
    expectTooMany(first, 1);
    // Meanwhile the owner signs in from home.
    expect(await t.login(customer.email, customer.password)).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await guess()).statusCode).toBe(401);
    const second = await guess();
    expect(second.statusCode).toBe(429);
    expect(Number(second.headers['retry-after'])).toBe(2);
  });

  it('keeps the limit per address strict, whichever accounts it tries', async () => {
    const { limit, windowSeconds } = AUTH_LIMITS.loginPerIp;
    const ip = '192.0.2.240';
    for (let i = 0; i < limit; i += 1) {
      expect((await t.post('/api/auth/login', { email: `someone${i}@gmail.com`, password: 'Guess1x' }, { ip })).statusCode).toBe(401);
    }
    expectTooMany(await t.post('/api/auth/login', { email: 'another@gmail.com', password: 'Guess1x' }, { ip }), windowSeconds);
    // IPv6 callers count per /64: moving within one's own block is no way around the limit.
    const block = '2001:db8:77:1';
    for (let i = 0; i < limit; i += 1) {
      const response = await t.post('/api/auth/login', { email: `v6.${i}@gmail.com`, password: 'Guess1x' }, { ip: `${block}::${(i + 1).toString(16)}` });
      expect(response.statusCode).toBe(401);
    }
    expectTooMany(await t.post('/api/auth/login', { email: 'v6.last@gmail.com', password: 'Guess1x' }, { ip: `${block}:ffff::1` }), windowSeconds);
  });

  it('stops one address from asking for mail again and again, and leaves other addresses alone', async () => {
    const { limit, windowSeconds } = AUTH_LIMITS.resendPerIp;
    const ip = '198.51.100.250';
    for (let i = 0; i < limit; i += 1) {
      expect((await t.post('/api/auth/resend-verification', { email: `someone${i}@gmail.com` }, { ip })).statusCode).toBe(200);
    }
    expectTooMany(await t.post('/api/auth/resend-new-device-code', { email: 'someone@gmail.com' }, { ip }), windowSeconds);
    expect((await t.post('/api/auth/resend-verification', { email: 'someone@gmail.com' }, { ip: '198.51.100.251' })).statusCode).toBe(200);
  });

  it('limits reset links per e-mail, whoever asks', async () => {
    const { limit, windowSeconds } = AUTH_LIMITS.forgotPerEmail;
    for (let i = 0; i < limit; i += 1) {
      expect((await t.post('/api/auth/forgot-password', { email: 'target.person@gmail.com' }, { ip: `203.0.113.${i + 1}` })).statusCode).toBe(200);
    }
    expectTooMany(await t.post('/api/auth/forgot-password', { email: 'target.person@gmail.com' }, { ip: '203.0.113.100' }), windowSeconds);
  });
});

describe.skipIf(!redisAnswers)('rate limits shared through Redis', () => {
  const prefix = `keystore-test:${process.pid}:${Date.now()}:`;
  let database: Database;
  let instances: TestApp[];

  beforeAll(async () => {
    database = await freshDatabase();
    const env = { REDIS_URL, REDIS_KEY_PREFIX: prefix, TRUST_PROXY: '1' };
    // Two instances of one store, as behind a load balancer: one database, one Redis.
    instances = [await buildTestApp({ database, env }), await buildTestApp({ database, env })];
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await database.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('counts the calls of both instances together', async () => {
    const { limit, windowSeconds } = AUTH_LIMITS.forgotPerEmail;
    const ask = (instance: TestApp, ip: string) =>
      instance.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: 'shared.count@gmail.com' }, headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < limit; i += 1) expect((await ask(instances[i % 2]!, `192.0.2.${i + 1}`)).statusCode).toBe(200);
    // Each instance alone has seen fewer calls than the limit; together they have reached it.
    expectTooMany(await ask(instances[0]!, '192.0.2.99'), windowSeconds);
    expectTooMany(await ask(instances[1]!, '192.0.2.98'), windowSeconds);
  });
});
