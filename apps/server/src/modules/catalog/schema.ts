import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, pgView, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { SystemRequirements } from '@keystore/contract';
import { xid8 } from '../../db/columns.ts';

/** The catalogue: one row per supplier product. Money is held in euro cents. */
export const games = pgTable(
  'games',
  {
    id: text('id').primaryKey(),
    supplier: text('supplier').notNull(),
    supplierProductId: text('supplier_product_id').notNull(),
    title: text('title').notNull(),
    image: text('image'),
    coverImage: text('cover_image'),
    platform: text('platform').notNull(),
    /** The launcher of a PC key when the feed named one (its activation guide, issue 31). */
    launcher: text('launcher'),
    type: text('type').notNull(),
    genres: text('genres').array().notNull(),
    region: text('region').notNull(),
    languages: text('languages').array().notNull(),
    pegi: integer('pegi').notNull(),
    description: text('description'),
    systemRequirements: jsonb('system_requirements').$type<SystemRequirements>(),
    supplierPriceCents: integer('supplier_price_cents').notNull(),
    priceCents: integer('price_cents').notNull(),
    originalPriceCents: integer('original_price_cents'),
    /** What the supplier says it has: only a sync writes it (and a delivery, which bought keys from it). */
    supplierStock: integer('supplier_stock').notNull(),
    /** Keys our open orders hold (awaiting payment, or paid and not yet delivered); a sync never touches it. */
    reserved: integer('reserved').notNull().default(0),
    /** What can still be sold: the supplier's quantity less our reservations, never below zero (decision 013). */
    stock: integer('stock').notNull().generatedAlwaysAs(sql`greatest(supplier_stock - reserved, 0)`),
    /** The cheapest sellable seller offer, and the keys all sellers have on sale (written through game-stock.ts when the offers module asks: offers/market.ts, decisions 029 and 031). */
    marketPriceCents: integer('market_price_cents'),
    marketStock: integer('market_stock').notNull().default(0),
    popularity: integer('popularity').notNull().default(0),
    releaseDate: text('release_date'),
    /** Release date when known, else when we first listed it: what "Newest" sorts by. */
    releasedAt: timestamp('released_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** False once the product has left the supplier's feed; it stays listed as out of stock. */
    active: boolean('active').notNull().default(true),
    /** The owner's choices (back office), which no sync touches: a hidden game is out of the store, a featured one leads the home carousel. */
    hidden: boolean('hidden').notNull().default(false),
    featured: boolean('featured').notNull().default(false),
    /** A price the owner set by hand; while set, the sync's price is ignored. */
    priceOverrideCents: integer('price_override_cents'),
    /** Hash of everything the feed said about the product, so an unchanged product is not rewritten. */
    feedHash: text('feed_hash').notNull(),
    supplierUpdatedAt: timestamp('supplier_updated_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().default(sql`now()`),
  },
  (table) => [
    uniqueIndex('games_supplier_product_idx').on(table.supplier, table.supplierProductId),
    index('games_updated_at_idx').on(table.updatedAt),
    check('games_supplier_stock_check', sql`${table.supplierStock} >= 0`),
    check('games_reserved_check', sql`${table.reserved} >= 0`),
    check('games_price_override_check', sql`${table.priceOverrideCents} is null or ${table.priceOverrideCents} > 0`),
  ],
);

/**
 * A game's shown price and whether it had stock to show, each time either changed (issue 31): written by
 * the database itself, by triggers on games (migration 0027), in the transaction of whatever write moved
 * them, whoever made it (a sync, a seller's offer through the market columns, the owner's override, a
 * purchase that took the last key). The price history reads it, and the wishlist's alerts follow it.
 */
export const pricePoints = pgTable(
  'price_points',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    priceCents: integer('price_cents').notNull(),
    inStock: boolean('in_stock').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().default(sql`now()`),
    /** The transaction that recorded it: the wishlist's alerts take points by it, in commit order (decision 037). */
    writtenBy: xid8('written_by').notNull().default(sql`pg_current_xact_id()`),
  },
  (table) => [index('price_points_game_at_idx').on(table.gameId, table.at), index('price_points_written_by_idx').on(table.writtenBy)],
);

/** One row per supplier sync: when it ran, what it changed, and how it ended. */
export const syncRuns = pgTable('sync_runs', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  supplier: text('supplier').notNull(),
  full: boolean('full').notNull(),
  since: timestamp('since', { withTimezone: true, mode: 'date' }),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  added: integer('added').notNull().default(0),
  updated: integer('updated').notNull().default(0),
  unchanged: integer('unchanged').notNull().default(0),
  skipped: integer('skipped').notNull().default(0),
  deactivated: integer('deactivated').notNull().default(0),
  error: text('error'),
});

/**
 * The read model other modules may read of a game (decision 033): what it is called, its prices, and
 * whether the store shows it, and the house's own stock. Orders read a line's supplier price from it in their delivery statement.
 */
export const gameFacts = pgView('game_facts').as((qb) =>
  qb
    .select({
      id: games.id,
      supplier: games.supplier,
      supplierProductId: games.supplierProductId,
      title: games.title,
      image: games.image,
      platform: games.platform,
      priceCents: games.priceCents,
      supplierPriceCents: games.supplierPriceCents,
      stock: games.stock,
      popularity: games.popularity,
      active: games.active,
      hidden: games.hidden,
    })
    .from(games),
);

/** The read model of the price points (decision 033): what the wishlist's alerts follow, in commit order. */
export const priceMoves = pgView('price_moves').as((qb) =>
  qb
    .select({ id: pricePoints.id, gameId: pricePoints.gameId, priceCents: pricePoints.priceCents, inStock: pricePoints.inStock, at: pricePoints.at, writtenBy: pricePoints.writtenBy })
    .from(pricePoints),
);
