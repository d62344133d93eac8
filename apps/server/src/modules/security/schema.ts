import { inArray, sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, pgView, text } from 'drizzle-orm/pg-core';
import type { SecurityEvent } from '@keystore/contract';
import { moment } from '../../db/columns.ts';
import { users } from '../users/schema.ts';

/**
 * An account's authenticator app (RFC 6238). The secret is sealed by the library's key ring with a
 * context of its own (`totp:<user id>`), so `keys:reencrypt` moves it too. `enabledAt` is null while
 * the set-up waits for its first code; `lastStep` is the last time step a code was accepted for, so
 * each code opens once, on any instance.
 */
export const totpFactors = pgTable('totp_factors', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretSealed: text('secret_sealed').notNull(),
  enabledAt: moment('enabled_at'),
  lastStep: bigint('last_step', { mode: 'number' }).notNull().default(0),
  createdAt: moment('created_at').notNull().default(sql`now()`),
});

/** Single-use codes for a sign-in without the authenticator app: only keyed hashes are kept. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: moment('used_at'),
  },
  (table) => [index('recovery_codes_user_idx').on(table.userId)],
);

/** An account's passkeys (WebAuthn credentials): the public key and the signature counter the authenticator keeps. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id, base64url, as the browser names it at sign-in. */
    credentialId: text('credential_id').notNull().unique(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default(sql`'{}'::text[]`),
    name: text('name').notNull(),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    lastUsedAt: moment('last_used_at'),
  },
  (table) => [index('passkeys_user_idx').on(table.userId)],
);

/**
 * A step a ceremony waits on: the second step of a sign-in (`totp`), a passkey sign-in or
 * registration (`passkey-login`, `passkey-register`, with the WebAuthn challenge), or the set-up a
 * role requires (`setup`). Only a hash of its id travels back; it dies when used, expired or tried
 * `SECOND_STEP_ATTEMPTS` times. `opens` is false for the decoy a wrong password gets: no code opens it.
 */
export const signInChallenges = pgTable(
  'sign_in_challenges',
  {
    idHash: text('id_hash').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<'totp' | 'setup' | 'passkey-login' | 'passkey-register'>().notNull(),
    opens: boolean('opens').notNull().default(true),
    /** The WebAuthn challenge a passkey ceremony must sign. */
    webauthnChallenge: text('webauthn_challenge'),
    ip: text('ip'),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: moment('expires_at').notNull(),
    usedAt: moment('used_at'),
  },
  (table) => [index('sign_in_challenges_expires_idx').on(table.expiresAt)],
);

/** Every security change of an account (issue 30): the mail it was told by, and the risk desk's account-takeover signal. */
export const securityEvents = pgTable(
  'security_events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<SecurityEvent>().notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    at: moment('at').notNull().default(sql`now()`),
  },
  (table) => [index('security_events_user_at_idx').on(table.userId, table.at)],
);

/**
 * Published for the risk desk: what an account thief does before spending (a sign-in from a new
 * device, a second factor turned off or replaced, a recovery code used, a passkey added, other devices
 * signed out, a seller's API key made or its webhook redirected), with when.
 */
export const securityChanges = pgView('security_changes').as((qb) =>
  qb
    .select({ userId: securityEvents.userId, kind: securityEvents.kind, at: securityEvents.at })
    .from(securityEvents)
    .where(
      inArray(securityEvents.kind, [
        'new-device',
        'password-changed',
        'totp-disabled',
        'recovery-code-used',
        'recovery-codes-regenerated',
        'passkey-added',
        'sessions-revoked',
        'api-key-created',
        'webhook-changed',
        'webhook-secret-rotated',
      ]),
    ),
);
