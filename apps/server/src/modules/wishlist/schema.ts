import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { moment, snapshot } from '../../db/columns.ts';
import { games } from '../catalog/schema.ts';
import { users } from '../users/schema.ts';

/**
 * The games a customer wished for (issue 31), each with the shown price when wished for and what to be
 * told of, and the last alert sent about it: the 7-day pause and "only a lower price than the last
 * alert" are read from the item itself, and an alert is written by updating it, so it is sent once.
 */
export const wishlistItems = pgTable(
  'wishlist_items',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    addedAt: moment('added_at').notNull().default(sql`now()`),
    priceAtAddCents: integer('price_at_add_cents').notNull(),
    priceDrop: boolean('price_drop').notNull().default(true),
    targetPriceCents: integer('target_price_cents'),
    backInStock: boolean('back_in_stock').notNull().default(true),
    lastAlertAt: moment('last_alert_at'),
    lastAlertPriceCents: integer('last_alert_price_cents'),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.gameId] }),
    index('wishlist_items_game_idx').on(table.gameId),
    check('wishlist_items_target_check', sql`${table.targetPriceCents} is null or ${table.targetPriceCents} > 0`),
  ],
);

/** Accounts that turned alert e-mails off (the profile's switch, or one click in a mail); the bell still tells them. */
export const alertMailOptOuts = pgTable('alert_mail_opt_outs', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  at: moment('at').notNull().default(sql`now()`),
});

/**
 * How far the alerts have followed the price points: every point written by a transaction that had
 * ended when the snapshot `through` was taken was weighed (one row, made by the migration; decision 037).
 */
export const wishlistAlertProgress = pgTable('wishlist_alert_progress', {
  id: integer('id').primaryKey().default(1),
  through: snapshot('through').notNull(),
  ranAt: moment('ran_at').notNull().default(sql`now()`),
});
