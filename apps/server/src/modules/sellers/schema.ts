import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { OFFER_DELIVERIES, OFFER_STATUSES, type OfferDelivery, SELLER_KEY_STATES, SELLER_STATUSES, type OfferStatus, type SellerKeyState, type SellerStatus } from '@keystore/contract';
import { listOf, moment } from '../../db/columns.ts';
import { games } from '../catalog/schema.ts';
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
 * A seller's offer of one game: the net price it wants per key, and the buyer's price (net plus the
 * commission of the moment, rewritten when the commission changes). One offer per seller per game.
 */
export const offers = pgTable(
  'offers',
  {
    id: text('id').primaryKey(),
    sellerId: text('seller_id')
      .notNull()
      .references(() => sellers.id),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id),
    netPriceCents: integer('net_price_cents').notNull(),
    priceCents: integer('price_cents').notNull(),
    status: text('status').$type<OfferStatus>().notNull().default('active'),
    /** 'uploaded': the keys are in seller_keys; 'declared': the seller promises `declared_stock` keys and hands each over when sold (issue 24). */
    delivery: text('delivery').$type<OfferDelivery>().notNull().default('uploaded'),
    /** What a declared offer still promises: taken by a reservation, given back when it is cancelled or lapses. */
    declaredStock: integer('declared_stock').notNull().default(0),
    /** The circuit breaker: out of the store until then, after too many failed reservations. */
    hiddenUntil: moment('hidden_until'),
    /** Times the breaker opened in a row (15, 30, then 60 minutes), and failed reservations in a row (3 pause the offer). */
    breakerTrips: integer('breaker_trips').notNull().default(0),
    failureStreak: integer('failure_streak').notNull().default(0),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    updatedAt: moment('updated_at').notNull().default(sql`now()`),
  },
  (table) => [
    check('offers_delivery_check', sql`${table.delivery} in (${listOf(OFFER_DELIVERIES)}) and ${table.declaredStock} >= 0`),
    uniqueIndex('offers_seller_game_idx').on(table.sellerId, table.gameId),
    index('offers_game_idx').on(table.gameId),
    index('offers_hidden_idx').on(table.hiddenUntil).where(sql`${table.hiddenUntil} is not null`),
    check('offers_status_check', sql`${table.status} in (${listOf(OFFER_STATUSES)})`),
    check('offers_prices_check', sql`${table.netPriceCents} > 0 and ${table.priceCents} >= ${table.netPriceCents}`),
  ],
);

/**
 * Keys a seller uploaded. The serial is encrypted like a library key (bound to this row's id) and kept
 * as keyed hashes: `serial_hash` of the serial without spaces, dashes and case (the duplicate rule:
 * unique per game over every seller, sold or not), and `library_hash`, what the library stores once
 * it is sold. A key is `reserved` by an unpaid order's line, `sold` once delivered; a refunded key
 * nobody revealed is `available` again. Only an available key can be deleted.
 */
export const sellerKeys = pgTable(
  'seller_keys',
  {
    id: text('id').primaryKey(),
    offerId: text('offer_id')
      .notNull()
      .references(() => offers.id),
    sellerId: text('seller_id')
      .notNull()
      .references(() => sellers.id),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id),
    serialEncrypted: text('serial_encrypted').notNull(),
    serialHash: text('serial_hash').notNull(),
    libraryHash: text('library_hash').notNull(),
    /** The last characters, for the seller's list: never the whole key. */
    masked: text('masked').notNull(),
    state: text('state').$type<SellerKeyState>().notNull().default('available'),
    orderId: text('order_id'),
    lineId: text('line_id'),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    soldAt: moment('sold_at'),
  },
  (table) => [
    uniqueIndex('seller_keys_game_serial_idx').on(table.gameId, table.serialHash),
    index('seller_keys_offer_state_idx').on(table.offerId, table.state),
    index('seller_keys_line_idx').on(table.lineId).where(sql`${table.lineId} is not null`),
    check('seller_keys_state_check', sql`${table.state} in (${listOf(SELLER_KEY_STATES)})`),
    check('seller_keys_line_check', sql`(${table.state} = 'available') = (${table.lineId} is null)`),
  ],
);
