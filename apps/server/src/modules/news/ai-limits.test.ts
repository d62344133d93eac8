import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages } from '@keystore/contract';
import { signedInUser, type SignedInUser } from '../../test/accounts.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { UsersService } from '../users/service.ts';
import { NEWS_LIMITS } from './limits.ts';

let t: TestApp;

async function admin(): Promise<SignedInUser> {
  const user = await signedInUser(t.app);
  await new UsersService(t.database, t.config).setRole(user.user._id, 'admin');
  return user;
}

const generateText = (who: SignedInUser, ip: string) =>
  t.app.inject({ method: 'POST', url: '/api/news/generate-text', payload: { topic: 'summer sale' }, headers: who.headers, remoteAddress: ip });

beforeAll(async () => {
  // Without an AI provider the drafts are written offline: the limits count the same.
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('AI draft limits', () => {
  it('stops one admin after the hourly budget, from any address, and leaves another admin alone', async () => {
    const { limit, windowSeconds } = NEWS_LIMITS.generateTextPerUser;
    const busy = await admin();
    for (let i = 0; i < limit; i += 1) expect((await generateText(busy, `192.0.2.${(i % 2) + 1}`)).statusCode).toBe(200);

    const over = await generateText(busy, '192.0.2.99');
    expect(over.statusCode).toBe(429);
    const retryAfter = Number(over.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
    expect(over.json()).toEqual({ error: accountMessages.tooManyRequests(retryAfter) });

    const other = await admin();
    expect((await generateText(other, '192.0.2.99')).statusCode).toBe(200);
  });

  it('counts cover drafts apart from text drafts', async () => {
    const writer = await admin();
    for (let i = 0; i < NEWS_LIMITS.generateTextPerUser.limit; i += 1) await generateText(writer, '198.51.100.7');
    expect((await generateText(writer, '198.51.100.7')).statusCode).toBe(429);
    const cover = await t.app.inject({ method: 'POST', url: '/api/news/generate-image', payload: { title: 'Summer sale' }, headers: writer.headers, remoteAddress: '198.51.100.7' });
    expect(cover.statusCode).toBe(200);
  });

  it('stops one address after its budget, whichever admins ask', async () => {
    const { limit } = NEWS_LIMITS.generateTextPerIp;
    const ip = '203.0.113.40';
    const admins = await Promise.all(Array.from({ length: Math.ceil(limit / NEWS_LIMITS.generateTextPerUser.limit) + 1 }, () => admin()));
    let asked = 0;
    for (const who of admins.slice(0, -1)) {
      for (let i = 0; i < NEWS_LIMITS.generateTextPerUser.limit && asked < limit; i += 1, asked += 1) expect((await generateText(who, ip)).statusCode).toBe(200);
    }
    expect((await generateText(admins.at(-1)!, ip)).statusCode).toBe(429);
    expect((await generateText(admins.at(-1)!, '203.0.113.41')).statusCode).toBe(200);
  });
});
