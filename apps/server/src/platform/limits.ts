// Every request limit of the store, counted by rate-limiter-flexible. With REDIS_URL the counters
// live in Redis and every instance shares them; each Redis limiter has an in-memory insurance
// limiter, so a Redis that fails, is away or hangs never takes the store down nor slows it by more
// than one short command timeout (its failure is logged, at most once a minute). Routes declare
// their limits in `config.limits`; one preHandler, after the session and the body are checked,
// counts them. Calls whose counting depends on the outcome (a wrong password) use the `Limits`
// service directly. See docs/decisions/016-abuse-limits.md.
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { accountMessages } from '@keystore/contract';
import { clientIp } from './client-ip.ts';
import { TooManyRequests } from './errors.ts';

export interface LimitRule {
  /** A short name that keeps the counters of different rules apart, e.g. `login-ip`. */
  name: string;
  limit: number;
  windowSeconds: number;
  /** The 429 text; the account API's "too many requests" when absent. */
  message?: (retryAfterSeconds: number) => string;
  /** A rule of the protocol rather than a budget (a ticket's one use): RATE_LIMIT_SCALE leaves it alone. */
  unscaled?: boolean;
}

/** Who a limit counts: an address, a user, an e-mail. No subject (an anonymous caller for a per-user rule): not counted. */
export type LimitSubject = (request: FastifyRequest) => string | undefined | Promise<string | undefined>;

export interface RouteLimit {
  rule: LimitRule;
  by: LimitSubject;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Counted before the handler, after authentication and the body's schema (platform/limits.ts). */
    limits?: RouteLimit[];
  }
  interface FastifyInstance {
    limits: Limits;
  }
}

/** A limit per caller address; IPv6 callers count per /64, the block one customer's line gets. */
export function perAddress(rule: LimitRule): RouteLimit {
  return { rule, by: (request) => addressKey(clientIp(request)) };
}

/** A limit per signed-in user (the route authenticates in onRequest); anonymous calls are not counted. */
export function perUser(rule: LimitRule): RouteLimit {
  return { rule, by: (request) => request.account?.userId };
}

/** A limit per value of a body field, e.g. the e-mail an account call is about (already normalised by its schema). */
export function perBodyField(rule: LimitRule, field: string): RouteLimit {
  return {
    rule,
    by: (request) => {
      const value = (request.body as Record<string, unknown> | undefined)?.[field];
      return typeof value === 'string' ? value : undefined;
    },
  };
}

/**
 * The counting key of an address: IPv4 as is, IPv6 by its first 64 bits (one customer's line is a
 * /64, so counting single IPv6 addresses would give an attacker 2^64 budgets).
 */
export function addressKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  const [head = '', tail] = ip.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail === undefined ? [] : tail ? tail.split(':') : [];
  const missing = Math.max(0, 8 - headGroups.length - tailGroups.length);
  const groups = [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return `${groups.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16)).join(':')}::/64`;
}

export type Verdict = { allowed: true; count: number } | { allowed: false; count: number; retryAfterSeconds: number };

export interface LimitsOptions {
  redisUrl?: string | undefined;
  /** Prefix of every Redis key, so several stores (or test runs) can share one Redis. */
  keyPrefix?: string;
  /** Multiplies every limit (operators, benchmarks); 1 in a normal store. */
  scale?: number;
  log: FastifyBaseLogger;
}

/** How often a Redis failure is logged at most, so an outage does not flood the log. */
const FAILURE_LOG_INTERVAL_MS = 60_000;
/**
 * The longest a limited call waits for a Redis command. A Redis on the same network answers in well
 * under a millisecond; one that hangs (memory pressure, a failover, SIGSTOP) keeps its connection
 * and answers nothing, and ioredis then waits for this timeout on every command.
 */
const REDIS_COMMAND_TIMEOUT_MS = 50;
/**
 * After a Redis call failed or timed out, the calls of the next seconds count in memory without
 * trying Redis (a circuit breaker): a hung Redis costs one timeout per pause, not one per call.
 */
const REDIS_PAUSE_MS = 2000;

/** A rule's counters: in Redis (when configured) and in memory, which is also the Redis limiter's insurance. */
interface RuleLimiters {
  redis: RateLimiterRedis | undefined;
  memory: RateLimiterMemory;
}

export class Limits {
  private readonly redis: Redis | undefined;
  private readonly limiters = new Map<string, RuleLimiters>();
  private readonly keyPrefix: string;
  private readonly scale: number;
  private readonly log: FastifyBaseLogger;
  private lastFailureLog = 0;
  /** Until when calls count in memory without trying Redis (see REDIS_PAUSE_MS). */
  private redisPausedUntil = 0;

  constructor(options: LimitsOptions) {
    this.keyPrefix = options.keyPrefix ?? 'keystore:';
    this.scale = options.scale ?? 1;
    this.log = options.log;
    if (options.redisUrl) {
      this.redis = new Redis(options.redisUrl, {
        // Fail fast instead of queueing: a request never waits for a Redis that is away, or long for one that hangs.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
        connectTimeout: 2000,
        lazyConnect: true,
      });
      this.redis.on('error', (error: Error) => this.logFailure(error));
    }
  }

  /** Connects to Redis before the store takes requests; when it cannot, the insurance limiters count meanwhile. */
  async start(): Promise<void> {
    await this.redis?.connect().catch((error: unknown) => this.logFailure(error));
  }

  async close(): Promise<void> {
    this.redis?.disconnect();
  }

  /** Counts one call of `subject` under `rule` and answers whether it is within the limit. */
  async hit(rule: LimitRule, subject: string): Promise<Verdict> {
    try {
      const res = await this.limiter(rule).consume(subject);
      return { allowed: true, count: res.consumedPoints };
    } catch (rejection) {
      return this.refused(rejection);
    }
  }

  /** Whether one more call of `subject` would be within `rule`, without counting one. */
  async peek(rule: LimitRule, subject: string): Promise<Verdict> {
    const res = await this.limiter(rule).get(subject);
    if (!res) return { allowed: true, count: 0 };
    return res.consumedPoints >= this.limitOf(rule)
      ? { allowed: false, count: res.consumedPoints, retryAfterSeconds: seconds(res.msBeforeNext) }
      : { allowed: true, count: res.consumedPoints };
  }

  /** Refuses `subject` under `rule` for `seconds` (a progressive wait), whatever it has counted. */
  async block(rule: LimitRule, subject: string, blockSeconds: number): Promise<void> {
    await this.limiter(rule).block(subject, blockSeconds);
  }

  /** Forgets `subject`'s count under `rule` (a right password ends a run of wrong ones). */
  async forget(rule: LimitRule, subject: string): Promise<void> {
    await this.limiter(rule).delete(subject);
  }

  /** Counts the call under each rule; the first one over its limit answers 429 with Retry-After. */
  async enforce(...checks: Array<[rule: LimitRule, subject: string]>): Promise<void> {
    const verdicts = await Promise.all(checks.map(([rule, subject]) => this.hit(rule, subject)));
    verdicts.forEach((verdict, index) => {
      if (!verdict.allowed) throw tooMany(checks[index]![0], verdict.retryAfterSeconds);
    });
  }

  /** Answers 429 when `subject` is refused under `rule` (see `block`), without counting. */
  async assertAllowed(rule: LimitRule, subject: string): Promise<void> {
    const verdict = await this.peek(rule, subject);
    if (!verdict.allowed) throw tooMany(rule, verdict.retryAfterSeconds);
  }

  /** The limiter a call of `rule` counts with now: Redis's, or the in-memory one while Redis is paused or absent. */
  private limiter(rule: LimitRule): RateLimiterAbstract {
    let limiters = this.limiters.get(rule.name);
    if (!limiters) {
      const options = { keyPrefix: `${this.keyPrefix}rate:${rule.name}`, points: this.limitOf(rule), duration: rule.windowSeconds };
      if (this.redis) {
        const memory = new InsuranceLimiter(options, () => this.redisFailed());
        const redis = new RateLimiterRedis({ ...options, storeClient: this.redis, rejectIfRedisNotReady: true, insuranceLimiter: memory });
        limiters = { redis, memory };
      } else {
        limiters = { redis: undefined, memory: new RateLimiterMemory(options) };
      }
      this.limiters.set(rule.name, limiters);
    }
    return limiters.redis && Date.now() >= this.redisPausedUntil ? limiters.redis : limiters.memory;
  }

  private limitOf(rule: LimitRule): number {
    return rule.unscaled ? rule.limit : Math.max(1, Math.round(rule.limit * this.scale));
  }

  private refused(rejection: unknown): Verdict {
    if (rejection instanceof RateLimiterRes) {
      return { allowed: false, count: rejection.consumedPoints, retryAfterSeconds: seconds(rejection.msBeforeNext) };
    }
    throw rejection;
  }

  /**
   * An insurance limiter answered: Redis failed on a call, timed out or is away. Calls count in
   * memory for the next REDIS_PAUSE_MS, then try Redis again. (Calls made in memory during a pause
   * come here too; they neither extend it nor log again.)
   */
  private redisFailed(): void {
    if (Date.now() < this.redisPausedUntil) return;
    this.redisPausedUntil = Date.now() + REDIS_PAUSE_MS;
    this.logFailure(new Error(this.redis?.status === 'ready' ? 'a Redis call failed or timed out' : `Redis is ${this.redis?.status ?? 'not configured'}`));
  }

  private logFailure(error: unknown): void {
    const now = Date.now();
    if (now - this.lastFailureLog < FAILURE_LOG_INTERVAL_MS) return;
    this.lastFailureLog = now;
    this.log.warn({ err: error }, 'Redis rate-limit counters unavailable; counting in memory meanwhile');
  }
}

/** The in-memory limiter a Redis limiter falls back on; it tells the Limits, so the outage pauses Redis and is logged. */
class InsuranceLimiter extends RateLimiterMemory {
  private readonly onUse: () => void;

  constructor(options: { keyPrefix: string; points: number; duration: number }, onUse: () => void) {
    super(options);
    this.onUse = onUse;
  }

  override consume(...args: Parameters<RateLimiterMemory['consume']>) {
    this.onUse();
    return super.consume(...args);
  }
  override get(...args: Parameters<RateLimiterMemory['get']>) {
    this.onUse();
    return super.get(...args);
  }
  override block(...args: Parameters<RateLimiterMemory['block']>) {
    this.onUse();
    return super.block(...args);
  }
  override delete(...args: Parameters<RateLimiterMemory['delete']>) {
    this.onUse();
    return super.delete(...args);
  }
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

function tooMany(rule: LimitRule, retryAfterSeconds: number): TooManyRequests {
  const message = rule.message ?? accountMessages.tooManyRequests;
  return new TooManyRequests(message(retryAfterSeconds), retryAfterSeconds);
}

/**
 * `app.limits` for every module, and the preHandler that counts each route's `config.limits`. It
 * runs after onRequest (so per-user limits know the user) and after the body's schema (so per-field
 * limits read a checked, normalised value, and a malformed call costs nothing).
 */
export const limitsPlugin = fp<{ limits: Limits }>(
  async (app: FastifyInstance, { limits }) => {
    app.decorate('limits', limits);
    app.addHook('onReady', () => limits.start());
    app.addHook('onClose', () => limits.close());
    app.addHook('preHandler', async (request) => {
      const declared = request.routeOptions.config.limits;
      if (!declared?.length) return;
      const checks: Array<[LimitRule, string]> = [];
      for (const { rule, by } of declared) {
        const subject = await by(request);
        if (subject !== undefined) checks.push([rule, subject]);
      }
      await limits.enforce(...checks);
    });
  },
  { name: 'keystore-limits' },
);
