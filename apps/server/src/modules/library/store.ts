// Data access for keys and their reveals. The orders module stores keys through LibraryService
// inside its own transactions (`Db` may be a transaction).
import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { keyReveals, productKeys } from '../../db/schema.ts';

export type KeyRow = typeof productKeys.$inferSelect;
export type NewKeyRow = typeof productKeys.$inferInsert;

/**
 * Writes keys; a row for a (line, position) or a (game, serial) that exists already is skipped.
 * The first makes a second allocation run of the same order harmless; the second is the rule that
 * a key is sold once, ever. Answers the rows actually written.
 */
export async function insertKeys(db: Db, rows: NewKeyRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const written = await db.insert(productKeys).values(rows).onConflictDoNothing().returning({ id: productKeys.id });
  return written.length;
}

/** How many live keys each line of an order holds. */
export async function keysPerLine(db: Db, orderId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ lineId: productKeys.lineId, keys: count() })
    .from(productKeys)
    .where(and(eq(productKeys.orderId, orderId), isNull(productKeys.voidedAt)))
    .groupBy(productKeys.lineId);
  return new Map(rows.map((row) => [row.lineId, row.keys]));
}

/** Voids every live key of an order; answers how many. */
export async function voidKeysOfOrder(db: Db, orderId: string, reason: string): Promise<number> {
  const voided = await db
    .update(productKeys)
    .set({ voidedAt: new Date(), voidReason: reason })
    .where(and(eq(productKeys.orderId, orderId), isNull(productKeys.voidedAt)))
    .returning({ id: productKeys.id });
  return voided.length;
}

/** A customer's live keys, newest first. */
export function liveKeysOf(db: Db, userId: string) {
  return db
    .select({ id: productKeys.id, gameId: productKeys.gameId, orderId: productKeys.orderId, deliveredAt: productKeys.deliveredAt })
    .from(productKeys)
    .where(and(eq(productKeys.userId, userId), isNull(productKeys.voidedAt)))
    .orderBy(desc(productKeys.deliveredAt), productKeys.id);
}

/** A live key of this owner, or undefined (someone else's key and a missing one look the same). */
export async function ownedKey(db: Db, keyId: string, userId: string): Promise<Pick<KeyRow, 'id' | 'serialEncrypted'> | undefined> {
  const [row] = await db
    .select({ id: productKeys.id, serialEncrypted: productKeys.serialEncrypted })
    .from(productKeys)
    .where(and(eq(productKeys.id, keyId), eq(productKeys.userId, userId), isNull(productKeys.voidedAt)));
  return row;
}

export async function recordReveal(db: Db, reveal: { keyId: string; userId: string; ip: string }): Promise<void> {
  await db.insert(keyReveals).values(reveal);
}

/** Live keys per line of several orders at once (order views show keys delivered per line). */
export async function liveKeysPerLine(db: Db, orderIds: string[]): Promise<Map<string, number>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .select({ lineId: productKeys.lineId, keys: count() })
    .from(productKeys)
    .where(and(inArray(productKeys.orderId, orderIds), isNull(productKeys.voidedAt)))
    .groupBy(productKeys.lineId);
  return new Map(rows.map((row) => [row.lineId, row.keys]));
}

export async function liveKeyCount(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ keys: count() })
    .from(productKeys)
    .where(and(eq(productKeys.userId, userId), isNull(productKeys.voidedAt)));
  return row?.keys ?? 0;
}
