import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { bytea, moment } from '../db/columns.ts';

/**
 * Every e-mail the store sends. With SMTP it is the retry queue; without, it is the dev outbox
 * listed at /dev/mail.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    sentAt: moment('sent_at'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: moment('next_attempt_at').notNull().default(sql`now()`),
    lastError: text('last_error'),
    /** Extra headers (an alert's List-Unsubscribe), kept so that a retried mail carries them too. */
    headers: jsonb('headers').$type<Record<string, string>>(),
  },
  (table) => [index('mail_outbox_pending_idx').on(table.nextAttemptAt).where(sql`${table.sentAt} is null`)],
);

/**
 * Uploaded pictures (avatars, news covers), re-encoded WebP of at most a few hundred kilobytes, kept
 * in the database so that every instance serves what any instance stored. A name is never reused.
 */
export const images = pgTable('images', {
  /** `<folder>/<file>`, e.g. `avatars/<userId>-<random>.webp`. */
  name: text('name').primaryKey(),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  byteSize: integer('byte_size').notNull(),
  /** SHA-256 of the bytes (base64url): the strong ETag. */
  sha256: text('sha256').notNull(),
  createdAt: moment('created_at').notNull().default(sql`now()`),
});

/**
 * Every admin action, append-only (a trigger refuses UPDATE and DELETE): who, when, what, on what,
 * and the values before and after where they apply.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: moment('at').notNull().default(sql`now()`),
    /** The admin; kept as text (with the e-mail) so the record outlives the account. */
    actorId: text('actor_id').notNull(),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
  },
  (table) => [index('audit_log_at_idx').on(table.at), index('audit_log_target_idx').on(table.targetType, table.targetId)],
);

/** Settings the owner changes in the back office (`markupPercent`, the sellers' default commission …), one JSON value per key: written only through platform/settings.ts. */
export const storeSettings = pgTable('store_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: moment('updated_at').notNull().default(sql`now()`),
});
