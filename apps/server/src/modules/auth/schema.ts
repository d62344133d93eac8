import { and, inArray, isNotNull, sql } from 'drizzle-orm';
import { index, integer, pgTable, pgView, primaryKey, text } from 'drizzle-orm/pg-core';
import { moment } from '../../db/columns.ts';
import { users } from '../users/schema.ts';

/** A signed-in device. A JWT names its session, so ending the row ends the token at once. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** The web app's browser id (`x-session-id`) it signed in from: the risk desk's browser identity (issue 29). */
    browser: text('browser'),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    /** When the session was last used, to the minute (issue 30): written at most once a minute per session. */
    lastSeenAt: moment('last_seen_at'),
    expiresAt: moment('expires_at').notNull(),
    revokedAt: moment('revoked_at'),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

/**
 * Single-use secrets sent by e-mail: 6-digit codes (e-mail verification, new device) and password
 * reset tokens. Only a hash is stored; a code dies when used, expired or tried too often.
 */
export const accountCodes = pgTable(
  'account_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<'verify-email' | 'new-device' | 'reset-password'>().notNull(),
    secretHash: text('secret_hash').notNull(),
    /** For a new-device code: the address it will trust once verified. */
    ip: text('ip'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    expiresAt: moment('expires_at').notNull(),
    usedAt: moment('used_at'),
  },
  (table) => [index('account_codes_user_purpose_idx').on(table.userId, table.purpose)],
);

/** Addresses from which an account has verified a login; a login from elsewhere asks for a code. */
export const trustedIps = pgTable(
  'trusted_ips',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ip: text('ip').notNull(),
    verifiedAt: moment('verified_at').notNull().default(sql`now()`),
  },
  (table) => [primaryKey({ columns: [table.userId, table.ip] })],
);

/**
 * Published for the risk desk (decision 033, issue 29): each sign-in from an address the account had
 * not trusted (a new-device code used) and each password reset, with when.
 */
export const untrustedSignIns = pgView('untrusted_sign_ins').as((qb) =>
  qb
    .select({ userId: accountCodes.userId, purpose: accountCodes.purpose, at: sql<Date>`${accountCodes.usedAt}`.as('at') })
    .from(accountCodes)
    .where(and(inArray(accountCodes.purpose, ['new-device', 'reset-password']), isNotNull(accountCodes.usedAt))),
);

/** Published for the risk desk: the browsers each account has signed in from. */
export const knownBrowsers = pgView('known_browsers').as((qb) =>
  qb.selectDistinct({ userId: sessions.userId, browser: sessions.browser }).from(sessions).where(isNotNull(sessions.browser)),
);

/** Published for the risk desk: the addresses each account has signed in from and trusted. */
export const knownAddresses = pgView('known_addresses').as((qb) => qb.select({ userId: trustedIps.userId, ip: trustedIps.ip }).from(trustedIps));
