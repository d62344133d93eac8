// Data access for keys and their reveals. The orders module stores keys through LibraryService
// inside its own transactions (`Db` may be a transaction).
import { and, asc, count, desc, eq, gt, inArray, isNull, notExists, notLike, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { keyReveals, productKeys, vaultKeys } from './schema.ts';

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

/**
 * Voids the live keys of an order nobody ever revealed (a disputed payment's, issue 29); answers each
 * voided key's line and hash. A revealed key stays in its owner's library: it was seen, and is never sold again.
 */
export async function voidUnrevealedKeysOfOrder(db: Db, orderId: string, reason: string): Promise<VoidedKey[]> {
  const revealed = db.select({ keyId: keyReveals.keyId }).from(keyReveals).where(eq(keyReveals.keyId, productKeys.id));
  const voided = await db
    .update(productKeys)
    .set({ voidedAt: new Date(), voidReason: reason })
    .where(and(eq(productKeys.orderId, orderId), isNull(productKeys.voidedAt), notExists(revealed)))
    .returning(voidedColumns);
  return voided.map((key) => ({ ...key, revealed: false }));
}

/** A key just voided: its row (the serial is sealed for it), line, game and hash, and whether its owner ever revealed it. */
export interface VoidedKey {
  id: string;
  lineId: string;
  gameId: string;
  serialHash: string;
  serialEncrypted: string;
  revealed: boolean;
}

const voidedColumns = { id: productKeys.id, lineId: productKeys.lineId, gameId: productKeys.gameId, serialHash: productKeys.serialHash, serialEncrypted: productKeys.serialEncrypted };

/** Voids the live keys of some lines of an order; answers each with whether it was ever revealed. */
export async function voidKeysOfLines(db: Db, orderId: string, lineIds: string[], reason: string): Promise<VoidedKey[]> {
  if (lineIds.length === 0) return [];
  const voided = await db
    .update(productKeys)
    .set({ voidedAt: new Date(), voidReason: reason })
    .where(and(eq(productKeys.orderId, orderId), inArray(productKeys.lineId, lineIds), isNull(productKeys.voidedAt)))
    .returning(voidedColumns);
  if (voided.length === 0) return [];
  const seen = new Set(
    (await db.selectDistinct({ keyId: keyReveals.keyId }).from(keyReveals).where(inArray(keyReveals.keyId, voided.map((key) => key.id)))).map((row) => row.keyId),
  );
  return voided.map((key) => ({ ...key, revealed: seen.has(key.id) }));
}

/** A customer's live keys, newest first. */
export function liveKeysOf(db: Db, userId: string) {
  return liveKeysWhere(db, eq(productKeys.userId, userId));
}

/** The live keys of some orders, newest first (the keys of gifts a buyer sent). */
export function liveKeysOfOrders(db: Db, orderIds: string[]) {
  return liveKeysWhere(db, inArray(productKeys.orderId, orderIds));
}

/** Live keys as the library lists them, newest first: which game, which order, when, and whether revealed. */
function liveKeysWhere(db: Db, which: SQL) {
  return db
    .select({
      id: productKeys.id,
      gameId: productKeys.gameId,
      orderId: productKeys.orderId,
      deliveredAt: productKeys.deliveredAt,
      revealed: sql<boolean>`exists (select 1 from key_reveals r where r.key_id = product_keys.id)`,
    })
    .from(productKeys)
    .where(and(which, isNull(productKeys.voidedAt)))
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

export async function recordReveal(db: Db, reveal: { keyId: string; userId: string | null; ip: string }): Promise<void> {
  await db.insert(keyReveals).values(reveal);
}

/** The live keys of one order, in line and position order, and whether their owner revealed each. */
export function liveKeysOfOrder(db: Db, orderId: string) {
  return db
    .select({
      id: productKeys.id,
      lineId: productKeys.lineId,
      gameId: productKeys.gameId,
      serialEncrypted: productKeys.serialEncrypted,
      demo: productKeys.demo,
      // Written out: drizzle leaves a single table's columns unqualified, and key_reveals has an id too.
      revealed: sql<boolean>`exists (select 1 from key_reveals r where r.key_id = product_keys.id)`,
    })
    .from(productKeys)
    .where(and(eq(productKeys.orderId, orderId), isNull(productKeys.voidedAt)))
    .orderBy(productKeys.lineId, productKeys.position);
}

/** A guest's orders joined the account that proved its e-mail (issue 29): their keys are its now. */
export async function adoptKeys(db: Db, orderIds: string[], userId: string): Promise<number> {
  if (orderIds.length === 0) return 0;
  const rows = await db
    .update(productKeys)
    .set({ userId })
    .where(and(inArray(productKeys.orderId, orderIds), isNull(productKeys.userId)))
    .returning({ id: productKeys.id });
  return rows.length;
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

/** A wrapped key of the vault (see key-vault.ts), or undefined before the first start stored it. */
export async function vaultKey(db: Db, purpose: string): Promise<string | undefined> {
  const [row] = await db.select({ wrapped: vaultKeys.wrapped }).from(vaultKeys).where(eq(vaultKeys.purpose, purpose));
  return row?.wrapped;
}

/** Stores a wrapped key unless one is stored already (the first instance to start wins). */
export async function insertVaultKey(db: Db, purpose: string, wrapped: string): Promise<void> {
  await db.insert(vaultKeys).values({ purpose, wrapped }).onConflictDoNothing();
}

/** Replaces a wrapped key if it is still `previous`; answers whether it did. */
export async function replaceVaultKey(db: Db, purpose: string, previous: string, wrapped: string): Promise<boolean> {
  const replaced = await db
    .update(vaultKeys)
    .set({ wrapped })
    .where(and(eq(vaultKeys.purpose, purpose), eq(vaultKeys.wrapped, previous)))
    .returning({ purpose: vaultKeys.purpose });
  return replaced.length > 0;
}

/** Any one stored key, voided or not: which encryption key the serial hashes were made under. */
export async function sampleKey(db: Db): Promise<Pick<KeyRow, 'id' | 'serialEncrypted' | 'serialHash'> | undefined> {
  const [row] = await db
    .select({ id: productKeys.id, serialEncrypted: productKeys.serialEncrypted, serialHash: productKeys.serialHash })
    .from(productKeys)
    .limit(1);
  return row;
}

/** The next `limit` keys after `afterId` (in id order) whose text does not start with `currentPrefix`. */
export function keysNotUnder(db: Db, currentPrefix: string, afterId: string, limit: number) {
  return db
    .select({ id: productKeys.id, serialEncrypted: productKeys.serialEncrypted })
    .from(productKeys)
    .where(and(gt(productKeys.id, afterId), notLike(productKeys.serialEncrypted, `${currentPrefix}%`)))
    .orderBy(asc(productKeys.id))
    .limit(limit);
}

/** Rewrites a key's ciphertext if it is still `previous` (nobody else re-encrypted it meanwhile); answers whether it did. */
export async function replaceEncryptedSerial(db: Db, id: string, previous: string, serialEncrypted: string): Promise<boolean> {
  const replaced = await db
    .update(productKeys)
    .set({ serialEncrypted })
    .where(and(eq(productKeys.id, id), eq(productKeys.serialEncrypted, previous)))
    .returning({ id: productKeys.id });
  return replaced.length > 0;
}

/** A key as a claim reads it: its owner, line, game, delivery, whether it is live and was ever revealed. */
export async function claimableKey(db: Db, keyId: string, owner: { userId: string } | { orderId: string }) {
  const [row] = await db
    .select({
      id: productKeys.id,
      orderId: productKeys.orderId,
      lineId: productKeys.lineId,
      gameId: productKeys.gameId,
      userId: productKeys.userId,
      deliveredAt: productKeys.deliveredAt,
      voidedAt: productKeys.voidedAt,
      serialEncrypted: productKeys.serialEncrypted,
      serialHash: productKeys.serialHash,
      revealed: sql<boolean>`exists (select 1 from key_reveals r where r.key_id = product_keys.id)`,
    })
    .from(productKeys)
    .where(and(eq(productKeys.id, keyId), 'userId' in owner ? eq(productKeys.userId, owner.userId) : eq(productKeys.orderId, owner.orderId)));
  return row;
}

/** The order a key was delivered for (a guest's claim is opened by that order's link). */
export async function orderOfKey(db: Db, keyId: string): Promise<string | undefined> {
  const [row] = await db.select({ orderId: productKeys.orderId }).from(productKeys).where(eq(productKeys.id, keyId));
  return row?.orderId;
}

/** Voids one live key (a claim refunded it); answers whether it was live. */
export async function voidKey(db: Db, keyId: string, reason: string): Promise<boolean> {
  const voided = await db.update(productKeys).set({ voidedAt: new Date(), voidReason: reason }).where(and(eq(productKeys.id, keyId), isNull(productKeys.voidedAt))).returning({ id: productKeys.id });
  return voided.length > 0;
}

/** Puts another serial in a live key's place; answers the sealed serial it replaced, or undefined when the key is not live. */
export async function swapSerial(db: Db, keyId: string, serialEncrypted: string, serialHash: string): Promise<string | undefined> {
  const [before] = await db.select({ serialEncrypted: productKeys.serialEncrypted }).from(productKeys).where(and(eq(productKeys.id, keyId), isNull(productKeys.voidedAt))).for('update');
  if (!before) return undefined;
  await db.update(productKeys).set({ serialEncrypted, serialHash, deliveredAt: new Date() }).where(eq(productKeys.id, keyId));
  return before.serialEncrypted;
}

export async function keyIsLive(db: Db, keyId: string): Promise<boolean> {
  const [row] = await db.select({ id: productKeys.id }).from(productKeys).where(and(eq(productKeys.id, keyId), isNull(productKeys.voidedAt)));
  return row !== undefined;
}

/** Which of these serial hashes were ever delivered for the game (by the house or a seller). */
export async function deliveredHashes(db: Db, gameId: string, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await db
    .select({ serialHash: productKeys.serialHash })
    .from(productKeys)
    .where(and(eq(productKeys.gameId, gameId), inArray(productKeys.serialHash, hashes)));
  return new Set(rows.map((row) => row.serialHash));
}
