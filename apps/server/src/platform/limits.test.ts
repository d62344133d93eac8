import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { addressKey, Limits } from './limits.ts';

const rule = { name: 'test', limit: 3, windowSeconds: 60 };
const quietLog = () => ({ warn: vi.fn() }) as unknown as FastifyBaseLogger & { warn: ReturnType<typeof vi.fn> };

describe('Limits', () => {
  afterEach(() => vi.useRealTimers());

  it('allows the limit within a window, then answers the seconds until the window ends', async () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z'), toFake: ['Date'] });
    const limits = new Limits({ log: quietLog() });
    for (let i = 0; i < 3; i += 1) expect((await limits.hit(rule, '192.0.2.1')).allowed).toBe(true);
    vi.setSystemTime(new Date('2030-01-01T00:00:20Z'));
    expect(await limits.hit(rule, '192.0.2.1')).toMatchObject({ allowed: false, retryAfterSeconds: 40 });
    expect((await limits.hit(rule, '192.0.2.2')).allowed).toBe(true);
    expect((await limits.hit({ ...rule, name: 'other' }, '192.0.2.1')).allowed).toBe(true);
  });

  it('scales every limit', async () => {
    const limits = new Limits({ log: quietLog(), scale: 2 });
    for (let i = 0; i < 6; i += 1) expect((await limits.hit(rule, 'a')).allowed).toBe(true);
    expect((await limits.hit(rule, 'a')).allowed).toBe(false);
    // … but not a rule of the protocol, such as a ticket's one use.
    const once = { name: 'once', limit: 1, windowSeconds: 60, unscaled: true };
    expect((await limits.hit(once, 't')).allowed).toBe(true);
    expect((await limits.hit(once, 't')).allowed).toBe(false);
  });

  it('peeks without counting, blocks for a given time and forgets', async () => {
    const limits = new Limits({ log: quietLog() });
    await limits.hit(rule, 'p');
    await limits.hit(rule, 'p');
    expect(await limits.peek(rule, 'p')).toEqual({ allowed: true, count: 2 });
    await limits.hit(rule, 'p');
    expect((await limits.peek(rule, 'p')).allowed).toBe(false);
    await limits.forget(rule, 'p');
    expect(await limits.peek(rule, 'p')).toEqual({ allowed: true, count: 0 });
    await limits.block(rule, 'q', 120);
    expect(await limits.peek(rule, 'q')).toMatchObject({ allowed: false, retryAfterSeconds: 120 });
    await expect(limits.assertAllowed(rule, 'q')).rejects.toMatchObject({ status: 429 });
  });

  it('answers 429 with the rule’s own message and Retry-After', async () => {
    const limits = new Limits({ log: quietLog() });
    const lock = { name: 'lock', limit: 1, windowSeconds: 30, message: (s: number) => `wait ${s}` };
    await limits.enforce([lock, 'x']);
    await expect(limits.enforce([lock, 'x'])).rejects.toMatchObject({ status: 429, message: 'wait 30', headers: { 'Retry-After': '30' } });
  });

  it('keeps counting in memory, and logs, when Redis cannot be reached', async () => {
    const log = quietLog();
    const limits = new Limits({ log, redisUrl: 'redis://127.0.0.1:1' });
    await limits.start();
    for (let i = 0; i < 3; i += 1) expect((await limits.hit(rule, 'b')).allowed).toBe(true);
    expect((await limits.hit(rule, 'b')).allowed).toBe(false);
    expect(log.warn).toHaveBeenCalled();
    await limits.close();
  });
});

describe('addressKey', () => {
  it('keeps IPv4 addresses and counts IPv6 ones by their /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});
