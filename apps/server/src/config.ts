import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_SUPPORT_EMAIL } from '@keystore/contract/constants';
import { DEFAULT_FAILOVER_MAX_EXTRA_PERCENT, PROVIDE_ATTEMPTS, PROVIDE_RETRY_MS, PROVIDE_TIMEOUT_MS, RESERVE_TIMEOUT_MS } from '@keystore/contract';
import { emailProblem, normalizeEmail, passwordProblem } from '@keystore/contract/rules';
import { commonPasswordProblem } from './platform/common-passwords.ts';

const HEX_KEY = /^[0-9a-f]{64}$/i;

const environmentSchema = z.object({
  NODE_ENV: z.string().default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Keystore <no-reply@keystore.local>'),
  SUPPORT_EMAIL: z.string().default(DEFAULT_SUPPORT_EMAIL),
  JWT_SECRET: z.string().min(32).optional(),
  /** The secret tokens were signed with before JWT_SECRET: still accepted, never used to sign. */
  JWT_SECRET_PREVIOUS: z.string().min(32).optional(),
  KEY_ENCRYPTION_KEY: z.string().regex(HEX_KEY, 'KEY_ENCRYPTION_KEY must be 64 hex digits').optional(),
  /** Keys that encrypted stored keys before KEY_ENCRYPTION_KEY, comma-separated: they still decrypt. */
  KEY_ENCRYPTION_KEY_PREVIOUS: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((key) => key.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(HEX_KEY, 'KEY_ENCRYPTION_KEY_PREVIOUS must be keys of 64 hex digits, comma-separated'))),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  SUPPLIER: z.enum(['demo', 'kinguin']).default('demo'),
  /** Demo sellers and a demo admin at start, outside production with the demo supplier; `off` for stores that must start bare (the test harnesses). */
  DEMO_MARKET: z.enum(['on', 'off']).default('on'),
  SUPPLIER_API_URL: z.url().default('https://gateway.kinguin.net/esa/api'),
  SUPPLIER_API_KEY: z.string().optional(),
  SUPPLIER_SYNC_CRON: z.string().default('0 */4 * * *'),
  SUPPLIER_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  PRICE_MARKUP_PERCENT: z.coerce.number().min(0).max(1000).default(5),
  /** Euro: a seller's available balance is paid out only from this much (issue 23). */
  PAYOUT_MINIMUM: z.coerce.number().min(0).max(100_000).default(20),
  /** When held sales whose hold is over are released (croner, with seconds): every minute. */
  LEDGER_RELEASE_CRON: z.string().default('30 * * * * *'),
  /** Declared-stock sellers (issue 24): the deadlines of their webhook's answers, and the provide's attempts. */
  SELLER_RESERVE_TIMEOUT_MS: z.coerce.number().int().min(100).default(RESERVE_TIMEOUT_MS),
  SELLER_PROVIDE_TIMEOUT_MS: z.coerce.number().int().min(100).default(PROVIDE_TIMEOUT_MS),
  SELLER_PROVIDE_RETRY_MS: z.coerce.number().int().min(0).default(PROVIDE_RETRY_MS),
  /** The most the store adds of its own to move a paid line to a dearer offer when its seller fails, percent of what was paid. */
  FAILOVER_MAX_EXTRA_PERCENT: z.coerce.number().min(0).max(100).default(DEFAULT_FAILOVER_MAX_EXTRA_PERCENT),
  PAYMENT_PROVIDER: z.enum(['test', 'stripe']).default('test'),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Where the Stripe SDK sends its calls: for tests and stripe-mock; unset means Stripe itself. */
  STRIPE_API_URL: z.url().optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.url().optional(),
  AI_CHAT_MODEL: z.string().default('gpt-4o-mini'),
  AI_IMAGE_MODEL: z.string().default('gpt-image-1'),
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((value, context) => {
      // How many proxies stand in front: on = 1. Only the addresses they appended are believed, so a
      // client cannot pick its own address by sending an X-Forwarded-For of its own.
      const word = value.trim().toLowerCase();
      if (/^\d+$/.test(word)) return Number(word);
      if (['true', 'yes', 'on'].includes(word)) return 1;
      if (['', 'false', 'no', 'off'].includes(word)) return 0;
      context.addIssue({ code: 'custom', message: 'TRUST_PROXY must be on, off or the number of proxies in front' });
      return z.NEVER;
    }),
  /** A bearer token for GET /metrics on the store's port (issue 32); unset, that route does not exist. */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  /** A port of its own for GET /metrics, without a token: for a private network only. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  REDIS_URL: z.string().optional(),
  /** A GeoLite2-style City database (.mmdb): the list of signed-in devices names each one's place. */
  GEOIP_DB: z.string().optional(),
  REDIS_KEY_PREFIX: z.string().default('keystore:'),
  RATE_LIMIT_SCALE: z.coerce.number().positive().default(1),
  /** Purchases (order or payment requests) one instance works on at once before new orders queue and are shed. */
  PURCHASE_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(8),
  ANALYTICS_SCRIPT_URL: z.url().optional(),
  WEB_DIST: z.string().optional(),
});

export type Environment = z.input<typeof environmentSchema>;
type CheckedEnvironment = z.output<typeof environmentSchema>;

/** The shared secrets: every instance of one store must have the same. */
interface Secrets {
  /** Signs tokens and keys the hashes of e-mailed codes. */
  jwt: string;
  /** Secrets signed with before `jwt`: tokens and codes made under them are still accepted. */
  jwtPrevious: string[];
  /** Encrypts keys at rest (64 hex digits). */
  keyEncryption: string;
  /** Keys that encrypted keys before `keyEncryption`: still decrypt until `npm run keys:reencrypt` has run. */
  keyEncryptionPrevious: string[];
}

/** The store's configuration, as `loadConfig` shapes it from the checked environment. */
export type Config = ReturnType<typeof shapeConfig>;

/** Reads and checks the environment once; a wrong value stops the start with a clear message. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.SUPPLIER === 'kinguin' && !e.SUPPLIER_API_KEY) {
    throw new Error('Invalid configuration:\n  SUPPLIER_API_KEY is required when SUPPLIER=kinguin');
  }
  if (e.PAYMENT_PROVIDER === 'stripe') {
    const missing = (['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const).filter((name) => !e[name]);
    if (missing.length) throw new Error(`Invalid configuration:\n  ${missing.map((name) => `${name} is required when PAYMENT_PROVIDER=stripe`).join('\n  ')}`);
  }
  return shapeConfig(e);
}

/** The configuration's shape, read from the checked environment: its type is `Config`. */
function shapeConfig(e: CheckedEnvironment) {
  const dataDir = path.resolve(e.DATA_DIR);
  const production = e.NODE_ENV === 'production';
  const databaseUrl = e.DATABASE_URL || undefined;
  return {
    production,
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl,
    logLevel: e.LOG_LEVEL,
    mail: { smtpUrl: e.SMTP_URL || undefined, from: e.MAIL_FROM, supportEmail: e.SUPPORT_EMAIL },
    secrets: secretsOf(e, dataDir, production || databaseUrl !== undefined),
    admin: adminAccount(e.ADMIN_EMAIL, e.ADMIN_PASSWORD),
    /** Whether the start opens the demo marketplace (demo-market.ts): never in production, only over the demo feed. */
    demoMarket: !production && e.SUPPLIER === 'demo' && e.DEMO_MARKET === 'on',
    supplier: {
      name: e.SUPPLIER,
      apiUrl: e.SUPPLIER_API_URL.replace(/\/$/, ''),
      apiKey: e.SUPPLIER_API_KEY,
      syncCron: e.SUPPLIER_SYNC_CRON,
      timeoutMs: e.SUPPLIER_TIMEOUT_MS,
      markupPercent: e.PRICE_MARKUP_PERCENT,
    },
    payments: {
      provider: e.PAYMENT_PROVIDER,
      stripeSecretKey: e.STRIPE_SECRET_KEY,
      stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
      stripeApiUrl: e.STRIPE_API_URL,
    },
    ai: { apiKey: e.OPENAI_API_KEY, baseUrl: e.OPENAI_BASE_URL, chatModel: e.AI_CHAT_MODEL, imageModel: e.AI_IMAGE_MODEL },
    /** Proxies in front whose X-Forwarded-For is believed (0: none, the socket's address counts). */
    trustProxy: e.TRUST_PROXY,
    /** Prometheus metrics: on the store's port for this bearer token, and/or on a port of their own (issue 32). */
    metrics: { token: e.METRICS_TOKEN || undefined, port: e.METRICS_PORT },
    redisUrl: e.REDIS_URL || undefined,
    /** Where signed-in devices are (issue 30); without it their addresses are shown masked. */
    geoipDb: e.GEOIP_DB || undefined,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    /** Multiplies every budget-like limit: 1 in a shop; benchmarks raise it. */
    rateLimitScale: e.RATE_LIMIT_SCALE,
    payoutMinimumCents: Math.round(e.PAYOUT_MINIMUM * 100),
    ledgerReleaseCron: e.LEDGER_RELEASE_CRON,
    sellerDelivery: {
      reserveTimeoutMs: e.SELLER_RESERVE_TIMEOUT_MS,
      provideTimeoutMs: e.SELLER_PROVIDE_TIMEOUT_MS,
      provideAttempts: PROVIDE_ATTEMPTS,
      provideRetryMs: e.SELLER_PROVIDE_RETRY_MS,
      failoverMaxExtraPercent: e.FAILOVER_MAX_EXTRA_PERCENT,
    },
    purchaseConcurrency: e.PURCHASE_CONCURRENCY,
    analyticsScriptUrl: e.ANALYTICS_SCRIPT_URL,
    /** The built web app; the server serves it when the folder exists. */
    webDist: path.resolve(e.WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
  };
}

/** The admin to ensure at start: both variables or neither, each passing the customers' own rules. */
function adminAccount(email: string | undefined, password: string | undefined): { email: string; password: string } | undefined {
  if (!email && !password) return undefined;
  const passwordIssue = password ? (passwordProblem(password) ?? commonPasswordProblem(password)) : undefined;
  const problems = [
    !email || !password ? 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together' : undefined,
    email && emailProblem(email) ? `ADMIN_EMAIL: ${emailProblem(email)}` : undefined,
    passwordIssue ? `ADMIN_PASSWORD: ${passwordIssue}` : undefined,
  ].filter(Boolean);
  if (problems.length) throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return { email: normalizeEmail(email!), password: password! };
}

/**
 * The secrets, from the environment. Several instances on one database must share them (a token one
 * signed, another must accept; a key one encrypted, another must reveal), and one instance's DATA_DIR
 * is not shared: so in production and on PostgreSQL they must be given. Only the embedded database
 * outside production, which one process owns, makes its own into DATA_DIR, so `npm start` needs nothing.
 */
function secretsOf(e: CheckedEnvironment, dataDir: string, shared: boolean): Secrets {
  if (shared) {
    const missing = [
      !e.JWT_SECRET && 'JWT_SECRET (at least 32 characters, e.g. `openssl rand -base64 48`)',
      !e.KEY_ENCRYPTION_KEY && 'KEY_ENCRYPTION_KEY (64 hex digits, e.g. `openssl rand -hex 32`)',
    ].filter(Boolean);
    if (missing.length) {
      const why = e.NODE_ENV === 'production' ? 'NODE_ENV=production' : 'DATABASE_URL is set';
      throw new Error(
        `Invalid configuration:\n  ${missing.map((name) => `${name} is required when ${why}`).join('\n  ')}\n` +
          '  Every instance must have the same secrets. A store that made its own keeps them in DATA_DIR/secrets/.',
      );
    }
  }
  return {
    jwt: e.JWT_SECRET ?? generatedSecret(dataDir, 'jwt-secret', 48, 'base64url'),
    jwtPrevious: e.JWT_SECRET_PREVIOUS ? [e.JWT_SECRET_PREVIOUS] : [],
    keyEncryption: e.KEY_ENCRYPTION_KEY ?? generatedSecret(dataDir, 'key-encryption-key', 32, 'hex'),
    keyEncryptionPrevious: e.KEY_ENCRYPTION_KEY_PREVIOUS,
  };
}

/** A secret made once and kept in DATA_DIR, so tokens and encrypted keys (and the demo accounts' passwords) survive a restart. */
export function generatedSecret(dataDir: string, name: string, bytes: number, encoding: 'hex' | 'base64url'): string {
  const file = path.join(dataDir, 'secrets', name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const secret = randomBytes(bytes).toString(encoding);
  writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}
