import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, pgView, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { SELLER_STATUSES, type SellerStatus } from '@keystore/contract';
import { listOf, moment } from '../../db/columns.ts';
import { users } from '../users/schema.ts';

/**
 * Sellers (issue 23). The house seller (`id = 'house'`, no user) is the supplier's feed: its offers are
 * the games rows themselves. Every other seller is one customer's account. A commission left null follows
 * the store's default (store_settings); it is kept in hundredths of a percent, so 12.5 % is 1250.
 */
export const sellers = pgTable(
  'sellers',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    contactEmail: text('contact_email').notNull(),
    country: text('country').notNull(),
    status: text('status').$type<SellerStatus>().notNull().default('pending'),
    commissionBasisPoints: integer('commission_basis_points'),
    commissionFixedCents: integer('commission_fixed_cents'),
    /** Days a sale's money is held before it is available; a change applies to sales from then on. */
    holdDays: integer('hold_days').notNull().default(14),
    /** The seller's endpoint for just-in-time keys (issue 24), and its signing secret sealed under the store's key ring. */
    webhookUrl: text('webhook_url'),
    webhookSecretSealed: text('webhook_secret_sealed'),
    webhookCreatedAt: moment('webhook_created_at'),
    /** The score from outcomes (score.ts), refreshed every minute; below the owner's floor after 20 deliveries its offers leave the store. */
    score: integer('score').notNull().default(90),
    scoreDeliveries: integer('score_deliveries').notNull().default(0),
    belowFloor: boolean('below_floor').notNull().default(false),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    updatedAt: moment('updated_at').notNull().default(sql`now()`),
  },
  (table) => [
    uniqueIndex('sellers_user_idx').on(table.userId),
    uniqueIndex('sellers_name_lower_idx').on(sql`lower(${table.name})`),
    check('sellers_status_check', sql`${table.status} in (${listOf(SELLER_STATUSES)})`),
    check('sellers_hold_days_check', sql`${table.holdDays} >= 0`),
  ],
);

/** A seller's keys to the API for its own systems: only a SHA-256 of the key is kept. */
export const sellerApiKeys = pgTable(
  'seller_api_keys',
  {
    id: text('id').primaryKey(),
    sellerId: text('seller_id')
      .notNull()
      .references(() => sellers.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull(),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    lastUsedAt: moment('last_used_at'),
  },
  (table) => [uniqueIndex('seller_api_keys_hash_idx').on(table.keyHash), index('seller_api_keys_seller_idx').on(table.sellerId)],
);

/**
 * The read model other modules may read of a seller (decision 033): its name and whether the store sells
 * from it (status, below the score floor, score for ties), and the days a sale's money is held. The
 * offers module reads it inside the best-offer statement, so it stays one query.
 */
export const sellerFacts = pgView('seller_facts').as((qb) =>
  qb
    .select({ id: sellers.id, userId: sellers.userId, name: sellers.name, status: sellers.status, belowFloor: sellers.belowFloor, score: sellers.score, holdDays: sellers.holdDays })
    .from(sellers),
);
