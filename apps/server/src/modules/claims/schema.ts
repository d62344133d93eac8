import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, pgView, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { CLAIM_REASONS, CLAIM_STATES, type ClaimReason, type ClaimState } from '@keystore/contract';
import { listOf, moment } from '../../db/columns.ts';

/**
 * A buyer's report that a key does not work (issue 24). One open claim per key (open or rejected,
 * until decided). A replacement keeps the old key here, sealed as the library sealed it (bound to the
 * key's row id), so support can still read what was replaced; a refund records its amount.
 */
export const claims = pgTable(
  'claims',
  {
    id: text('id').primaryKey(),
    keyId: text('key_id').notNull(),
    orderId: text('order_id').notNull(),
    lineId: text('line_id').notNull(),
    userId: text('user_id'),
    sellerId: text('seller_id').notNull(),
    gameId: text('game_id').notNull(),
    /** The seller's key as it was shown masked when the claim was filed; null for the house's own keys. */
    masked: text('masked'),
    reason: text('reason').$type<ClaimReason>().notNull(),
    message: text('message').notNull().default(''),
    state: text('state').$type<ClaimState>().notNull().default('open'),
    sellerMessage: text('seller_message'),
    note: text('note'),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    dueAt: moment('due_at').notNull(),
    decidedAt: moment('decided_at'),
    decidedBy: text('decided_by'),
    replacedSerialSealed: text('replaced_serial_sealed'),
    refundCents: integer('refund_cents'),
  },
  (table) => [
    uniqueIndex('claims_open_key_idx').on(table.keyId).where(sql`${table.state} in ('open', 'rejected')`),
    index('claims_seller_idx').on(table.sellerId, table.createdAt),
    index('claims_user_idx').on(table.userId, table.createdAt),
    index('claims_due_idx').on(table.dueAt).where(sql`${table.state} = 'open'`),
    check('claims_reason_check', sql`${table.reason} in (${listOf(CLAIM_REASONS)})`),
    check('claims_state_check', sql`${table.state} in (${listOf(CLAIM_STATES)})`),
  ],
);

/** The read model of claims other modules may read (decision 033): whose key, how it ended, when. A seller's score reads it. */
export const claimOutcomes = pgView('claim_outcomes').as((qb) =>
  qb.select({ sellerId: claims.sellerId, state: claims.state, createdAt: claims.createdAt }).from(claims),
);
