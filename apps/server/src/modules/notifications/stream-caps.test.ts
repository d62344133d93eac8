// One caller must not take every live-notification slot: streams are capped per signed-in user and
// per client address (429 beyond), and a closed stream gives its place back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationMessages } from '@keystore/contract';
import { STREAM_LIMITS } from './stream.ts';
import { ordersTestApp, type OrdersTestApp } from '../orders/test-kit.ts';
import { openEventStream, type EventStream } from './test-kit.ts';

describe('stream caps per caller', () => {
  let t: OrdersTestApp;
  let base: string;
  const streams: EventStream[] = [];
  /** Opens a stream as if from `address` (the app trusts one proxy, which names the client). */
  const open = async (address: string, query: string, headers: Record<string, string> = {}) => {
    const stream = await openEventStream(`${base}/api/notifications/stream?${query}`, { 'x-forwarded-for': address, ...headers });
    streams.push(stream);
    return stream;
  };
  const closeAndWait = async (stream: EventStream) => {
    const before = t.app.notifications.streams.size;
    stream.close();
    for (let i = 0; i < 100 && t.app.notifications.streams.size >= before; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  beforeAll(async () => {
    t = await ordersTestApp({ sync: false, env: { TRUST_PROXY: '1' } });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await t?.close();
  });

  it('refuses a user beyond their streams with 429 and Retry-After, and lets another user from the same address in', async () => {
    const [one, other] = [await t.buyer(), await t.buyer()];
    const opened = [];
    for (let i = 0; i < STREAM_LIMITS.perUser; i += 1) opened.push(await open('203.0.113.1', '', one.headers));
    expect(opened.map((stream) => stream.status)).toEqual(opened.map(() => 200));
    // Another address does not help: the cap follows the account.
    const refused = await fetch(`${base}/api/notifications/stream`, { headers: { ...one.headers, 'x-forwarded-for': '203.0.113.2' } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await refused.json()).toEqual({ error: notificationMessages.tooManyStreams });
    expect((await open('203.0.113.1', '', other.headers)).status).toBe(200);

    await closeAndWait(opened[0]!);
    expect((await open('203.0.113.2', '', one.headers)).status).toBe(200);
  });

  it('refuses one address beyond its streams while every other visitor still gets one', async () => {
    const flooding = '198.51.100.7';
    const opened = [];
    for (let i = 0; i < STREAM_LIMITS.perAddress; i += 1) opened.push(await open(flooding, `sessionId=flood-${i}`));
    expect(opened.map((stream) => stream.status)).toEqual(opened.map(() => 200));
    const refused = await open(flooding, 'sessionId=flood-more');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect((await open('198.51.100.8', 'sessionId=neighbour')).status).toBe(200);

    await closeAndWait(opened[0]!);
    expect((await open(flooding, 'sessionId=flood-again')).status).toBe(200);
  });
});
