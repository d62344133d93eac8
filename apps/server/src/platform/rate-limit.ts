// Fixed-window request counters. With REDIS_URL the counters live in Redis and every instance of the
// store shares them; without, each instance counts in memory. A Redis that fails or is unreachable
// never takes the store down: the call is counted in memory instead and the failure is logged.
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

export interface RateRule {
  /** A short name that keeps the counters of different rules apart, e.g. `login-ip`. */
  name: string;
  limit: number;
  windowSeconds: number;
}

export type RateVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiterOptions {
  redisUrl?: string | undefined;
  /** Prefix of every Redis key, so several stores (or test runs) can share one Redis. */
  keyPrefix?: string;
  /** Multiplies every limit (operators, benchmarks); 1 in a normal store. */
  scale?: number;
  log: FastifyBaseLogger;
}

// INCR and set the window's expiry on the first hit, atomically; answers the count and the ms left.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

/** How often a Redis failure is logged at most, so an outage does not flood the log. */
const FAILURE_LOG_INTERVAL_MS = 60_000;
/** Above this many memory counters, expired ones are swept before adding another. */
const MEMORY_SWEEP_AT = 10_000;
/** A hard cap on memory counters (a flood from many addresses): the oldest windows are dropped. */
const MEMORY_MAX = 100_000;

export class RateLimiter {
  private readonly redis: Redis | undefined;
  private readonly memory = new Map<string, { count: number; resetAt: number }>();
  private readonly keyPrefix: string;
  private readonly scale: number;
  private readonly log: FastifyBaseLogger;
  private lastFailureLog = 0;

  constructor(options: RateLimiterOptions) {
    this.keyPrefix = options.keyPrefix ?? 'keystore:';
    this.scale = options.scale ?? 1;
    this.log = options.log;
    if (options.redisUrl) {
      this.redis = new Redis(options.redisUrl, {
        // Fail fast instead of queueing: a request never waits for a Redis that is away.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: 500,
        connectTimeout: 2000,
        lazyConnect: true,
      });
      this.redis.on('error', (error: Error) => this.logFailure(error));
    }
  }

  /** Connects to Redis before the store takes requests; when it cannot, counting starts in memory. */
  async start(): Promise<void> {
    await this.redis?.connect().catch((error: unknown) => this.logFailure(error));
  }

  /** Counts one call of `subject` (an IP, an e-mail) under `rule` and answers whether it is allowed. */
  async hit(rule: RateRule, subject: string): Promise<RateVerdict> {
    const key = `${this.keyPrefix}rate:${rule.name}:${subject}`;
    const limit = Math.max(1, Math.round(rule.limit * this.scale));
    const windowMs = rule.windowSeconds * 1000;
    const counted = (await this.hitRedis(key, windowMs)) ?? this.hitMemory(key, windowMs);
    return counted.count <= limit ? { allowed: true } : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(counted.msLeft / 1000)) };
  }

  async close(): Promise<void> {
    if (this.redis) this.redis.disconnect();
  }

  private async hitRedis(key: string, windowMs: number): Promise<{ count: number; msLeft: number } | undefined> {
    if (!this.redis) return undefined;
    try {
      const [count, msLeft] = (await this.redis.eval(HIT_SCRIPT, 1, key, String(windowMs))) as [number, number];
      return { count, msLeft };
    } catch (error) {
      this.logFailure(error);
      return undefined;
    }
  }

  private hitMemory(key: string, windowMs: number): { count: number; msLeft: number } {
    const now = Date.now();
    let counter = this.memory.get(key);
    if (!counter || counter.resetAt <= now) {
      if (this.memory.size >= MEMORY_SWEEP_AT) this.sweep(now);
      counter = { count: 0, resetAt: now + windowMs };
      this.memory.set(key, counter);
    }
    counter.count += 1;
    return { count: counter.count, msLeft: counter.resetAt - now };
  }

  private sweep(now: number): void {
    for (const [key, counter] of this.memory) if (counter.resetAt <= now) this.memory.delete(key);
    // Maps iterate in insertion order, so the first keys are the oldest windows.
    for (const key of this.memory.keys()) {
      if (this.memory.size < MEMORY_MAX) break;
      this.memory.delete(key);
    }
  }

  private logFailure(error: unknown): void {
    const now = Date.now();
    if (now - this.lastFailureLog < FAILURE_LOG_INTERVAL_MS) return;
    this.lastFailureLog = now;
    this.log.warn({ err: error }, 'Redis rate-limit counters unavailable; counting in memory meanwhile');
  }
}
