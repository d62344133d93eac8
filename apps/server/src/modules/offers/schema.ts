// The offers module's tables (decision 031): every seller's offers, the keys they uploaded or handed
// over, and the reservations of declared stock with their events. Nothing else writes them.
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, pgView, text, uniqueIndex } from 'drizzle-orm/pg-core';
import {
  OFFER_DELIVERIES,
  OFFER_STATUSES,
  RESERVATION_STATES,
  SELLER_KEY_STATES,
  WEBHOOK_TYPES,
  type OfferDelivery,
  type OfferStatus,
  type ReservationState,
  type SellerKeyState,
  type WebhookType,
} from '@keystore/contract';
import { listOf, moment } from '../../db/columns.ts';
import { games } from '../catalog/schema.ts';
import { sellers } from '../sellers/schema.ts';

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

/** The offer a row belongs to, and its seller: the columns a key and a reservation both carry. */
const ofOffer = () => ({
  offerId: text('offer_id')
    .notNull()
    .references(() => offers.id),
  sellerId: text('seller_id')
    .notNull()
    .references(() => sellers.id),
});

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
    ...ofOffer(),
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

/** Where a house key is on its shelf (issue 29): back on it, taken by a line being delivered, sold with it, or burnt (revealed, never sold again). */
export const HOUSE_SHELF_STATES = ['shelved', 'taken', 'sold', 'burnt'] as const;
export type HouseShelfState = (typeof HOUSE_SHELF_STATES)[number];

/**
 * The house's shelf (issue 29): keys the house bought from the supplier that came back unrevealed (a
 * dispute, a fraud warning, a refund). The next order of the game's house offer is delivered from it
 * before the supplier is asked for more. A key is sealed as a library key is (bound to this row's id)
 * and known by the library's hash of its serial: one row per key of a game, whatever becomes of it.
 */
export const houseShelf = pgTable(
  'house_shelf',
  {
    id: text('id').primaryKey(),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id),
    serialEncrypted: text('serial_encrypted').notNull(),
    serialHash: text('serial_hash').notNull(),
    state: text('state').$type<HouseShelfState>().notNull().default('shelved'),
    /** The order the key came back from, last. */
    fromOrderId: text('from_order_id').notNull(),
    /** The line it is delivered for, taken or sold. */
    lineId: text('line_id'),
    shelvedAt: moment('shelved_at').notNull().default(sql`now()`),
    takenAt: moment('taken_at'),
  },
  (table) => [
    uniqueIndex('house_shelf_game_serial_idx').on(table.gameId, table.serialHash),
    index('house_shelf_shelved_idx').on(table.gameId, table.shelvedAt).where(sql`${table.state} = 'shelved'`),
    index('house_shelf_line_idx').on(table.lineId).where(sql`${table.lineId} is not null`),
    check('house_shelf_state_check', sql`${table.state} in (${listOf(HOUSE_SHELF_STATES)})`),
    check('house_shelf_line_check', sql`(${table.state} in ('taken', 'sold')) = (${table.lineId} is not null)`),
  ],
);

/**
 * A reservation of a declared-stock offer's keys for one order line (issue 24): its id is the
 * `reservationId` every call about it carries, so a seller answering twice delivers once. It moves by
 * the table of transitions.ts; each move and each call to the seller is an event. A reservation that
 * ends after the seller was asked owes it a `cancel`, sent by a job until it answers 2xx or a day passes.
 */
export const sellerReservations = pgTable(
  'seller_reservations',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id').notNull(),
    lineId: text('line_id').notNull(),
    ...ofOffer(),
    gameId: text('game_id').notNull(),
    quantity: integer('quantity').notNull(),
    unitNetCents: integer('unit_net_cents').notNull(),
    state: text('state').$type<ReservationState>().notNull(),
    reason: text('reason'),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    updatedAt: moment('updated_at').notNull().default(sql`now()`),
    providedAt: moment('provided_at'),
    /** Seconds from the first provide call to the keys stored: the score's provide time. */
    provideSeconds: integer('provide_seconds'),
    /** Provide calls made; 1 when the keys came on the first. */
    provideCalls: integer('provide_calls').notNull().default(0),
    /** A cancel owed to the seller: 'due' until it answers 2xx ('sent') or a day passes ('abandoned'). */
    cancelState: text('cancel_state'),
    cancelAttempts: integer('cancel_attempts').notNull().default(0),
    cancelNextAt: moment('cancel_next_at'),
  },
  (table) => [
    index('seller_reservations_line_idx').on(table.lineId),
    index('seller_reservations_order_idx').on(table.orderId),
    index('seller_reservations_seller_idx').on(table.sellerId, table.createdAt),
    index('seller_reservations_offer_idx').on(table.offerId, table.updatedAt),
    index('seller_reservations_cancel_idx').on(table.cancelNextAt).where(sql`${table.cancelState} = 'due'`),
    check('seller_reservations_state_check', sql`${table.state} in (${listOf(RESERVATION_STATES)})`),
    check('seller_reservations_quantity_check', sql`${table.quantity} > 0`),
  ],
);

/** Every move of a reservation and every call about it: what a seller debugs with, and the order's timeline. */
export const sellerReservationEvents = pgTable(
  'seller_reservation_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    reservationId: text('reservation_id')
      .notNull()
      .references(() => sellerReservations.id),
    at: moment('at').notNull().default(sql`now()`),
    /** A move: from → to with a reason. A call: its type, HTTP status or error, and duration. */
    fromState: text('from_state').$type<ReservationState>(),
    toState: text('to_state').$type<ReservationState>(),
    reason: text('reason'),
    callType: text('call_type').$type<WebhookType>(),
    httpStatus: integer('http_status'),
    error: text('error'),
    durationMs: integer('duration_ms'),
    /** The request a call was made for (its `x-request-id`, sent to the seller too; issue 32); null for a job's. */
    requestId: text('request_id'),
  },
  (table) => [index('seller_reservation_events_reservation_idx').on(table.reservationId, table.id), check('seller_reservation_events_call_check', sql`${table.callType} is null or ${table.callType} in (${listOf(WEBHOOK_TYPES)})`)],
);

/**
 * The read models of offers other modules may read (decision 033): each offer's seller and available
 * uploaded keys, and each reservation's outcome and provide time. A seller's panel and score read them.
 */
export const offerStock = pgView('offer_stock').as((qb) =>
  qb
    .select({
      offerId: sql<string>`${offers.id}`.as('offer_id'),
      sellerId: offers.sellerId,
      gameId: offers.gameId,
      availableKeys: sql<number>`(select count(*) from seller_keys k where k.offer_id = offers.id and k.state = 'available')::int`.as('available_keys'),
    })
    .from(offers),
);

export const reservationOutcomes = pgView('reservation_outcomes').as((qb) =>
  qb
    .select({
      sellerId: sellerReservations.sellerId,
      state: sellerReservations.state,
      provideCalls: sellerReservations.provideCalls,
      provideSeconds: sellerReservations.provideSeconds,
      updatedAt: sellerReservations.updatedAt,
    })
    .from(sellerReservations),
);
