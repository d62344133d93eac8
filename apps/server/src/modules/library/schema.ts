import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { moment } from '../../db/columns.ts';
import { games } from '../catalog/schema.ts';
import { orderLines, orders } from '../orders/schema.ts';
import { users } from '../users/schema.ts';

/**
 * Keys bought for orders. The serial is stored encrypted (AES-256-GCM: iv, tag and ciphertext,
 * base64url) and as a keyed hash; the unique (game, hash) index makes a key sellable once, ever.
 */
export const productKeys = pgTable(
  'product_keys',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id),
    lineId: text('line_id')
      .notNull()
      .references(() => orderLines.id),
    /** Which of the line's keys this is (0-based): a second allocation run writes the same rows, not more. */
    position: integer('position').notNull(),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    serialEncrypted: text('serial_encrypted').notNull(),
    serialHash: text('serial_hash').notNull(),
    demo: boolean('demo').notNull().default(false),
    deliveredAt: moment('delivered_at').notNull().default(sql`now()`),
    voidedAt: moment('voided_at'),
    voidReason: text('void_reason'),
  },
  (table) => [
    // A key voided unseen by a refund may be sold again (a seller's, back on its shelf); a live key never twice.
    uniqueIndex('product_keys_game_serial_idx').on(table.gameId, table.serialHash).where(sql`${table.voidedAt} is null`),
    uniqueIndex('product_keys_line_position_idx').on(table.lineId, table.position),
    index('product_keys_user_idx').on(table.userId, table.deliveredAt),
    index('product_keys_order_idx').on(table.orderId),
  ],
);

/** Every time a key was shown to its owner, and from where. */
export const keyReveals = pgTable(
  'key_reveals',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    keyId: text('key_id')
      .notNull()
      .references(() => productKeys.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    at: moment('at').notNull().default(sql`now()`),
    ip: text('ip'),
  },
  (table) => [index('key_reveals_key_idx').on(table.keyId)],
);

/**
 * Keys the library keeps wrapped (encrypted under KEY_ENCRYPTION_KEY, see library/key-vault.ts): the
 * key of the serial hashes, which must outlive a rotation of the encryption key.
 */
export const vaultKeys = pgTable('vault_keys', {
  purpose: text('purpose').primaryKey(),
  wrapped: text('wrapped').notNull(),
  createdAt: moment('created_at').notNull().default(sql`now()`),
});
