import { createConnection } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { accountMessages } from '@keystore/contract';
import type { Database } from '../../db/client.ts';
import { buildTestApp, freshDatabase, type TestApp } from '../../test/helper.ts';
import { AUTH_LIMITS } from './limits.ts';
import { authTestApp, type AuthTestApp } from './test-kit.ts';

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

  it('stops password guesses against one account from any address, and leaves other accounts alone', async () => {
    const victim = await t.verifiedCustomer();
    const { limit, windowSeconds } = AUTH_LIMITS.loginPerAccount;
    for (let i = 0; i < limit; i += 1) {
      const guess = await t.post('/api/auth/login', { email: victim.email, password: `Guess${i}x` }, { ip: `192.0.2.${i + 1}` });
      expect(guess.statusCode).toBe(401);
    }
    expectTooMany(await t.post('/api/auth/login', { email: victim.email, password: victim.password }, { ip: '192.0.2.200' }), windowSeconds);
    const bystander = await t.verifiedCustomer();
    expect(await t.login(bystander.email, bystander.password)).toBeTruthy();
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
