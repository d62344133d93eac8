import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { RateLimiter } from './rate-limit.ts';

const rule = { name: 'test', limit: 3, windowSeconds: 60 };
const quietLog = () => ({ warn: vi.fn() }) as unknown as FastifyBaseLogger & { warn: ReturnType<typeof vi.fn> };

describe('RateLimiter', () => {
  afterEach(() => vi.useRealTimers());

  it('allows the limit within a window, then answers the seconds until the window ends', async () => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z'), toFake: ['Date'] });
    const limiter = new RateLimiter({ log: quietLog() });
    for (let i = 0; i < 3; i += 1) expect(await limiter.hit(rule, '192.0.2.1')).toEqual({ allowed: true });
    vi.setSystemTime(new Date('2030-01-01T00:00:20Z'));
    expect(await limiter.hit(rule, '192.0.2.1')).toEqual({ allowed: false, retryAfterSeconds: 40 });
    expect(await limiter.hit(rule, '192.0.2.2')).toEqual({ allowed: true });
    expect(await limiter.hit({ ...rule, name: 'other' }, '192.0.2.1')).toEqual({ allowed: true });
    vi.setSystemTime(new Date('2030-01-01T00:01:00Z'));
    expect(await limiter.hit(rule, '192.0.2.1')).toEqual({ allowed: true });
  });

  it('scales every limit', async () => {
    const limiter = new RateLimiter({ log: quietLog(), scale: 2 });
    for (let i = 0; i < 6; i += 1) expect((await limiter.hit(rule, 'a')).allowed).toBe(true);
    expect((await limiter.hit(rule, 'a')).allowed).toBe(false);
  });

  it('keeps counting in memory, and logs, when Redis cannot be reached', async () => {
    const log = quietLog();
    const limiter = new RateLimiter({ log, redisUrl: 'redis://127.0.0.1:1' });
    await limiter.start();
    for (let i = 0; i < 3; i += 1) expect(await limiter.hit(rule, 'b')).toEqual({ allowed: true });
    expect((await limiter.hit(rule, 'b')).allowed).toBe(false);
    expect(log.warn).toHaveBeenCalled();
    await limiter.close();
  });
});
