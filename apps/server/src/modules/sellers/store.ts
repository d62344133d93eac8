// Data access for sellers (their accounts, applications, commission, hold, webhook endpoint and score)
// and their API keys. Offers and keys are the offers module's (decision 031), sold lines the orders
// module's: read through the views they publish (decision 033).
import { and, asc, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import { HOUSE_SELLER_ID, type SellerStatus } from '@keystore/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { offerStock } from '../offers/ports.ts';
import { soldLines } from '../orders/ports.ts';
import { sellerApiKeys, sellers } from './schema.ts';

export type SellerRow = typeof sellers.$inferSelect;

// --- Sellers -------------------------------------------------------------------------------------

export async function insertSeller(db: Db, row: typeof sellers.$inferInsert): Promise<SellerRow | undefined> {
  const [written] = await db.insert(sellers).values(row).onConflictDoNothing().returning();
  return written;
}

export async function sellerOfUser(db: Db, userId: string): Promise<SellerRow | undefined> {
  const [row] = await db.select().from(sellers).where(eq(sellers.userId, userId));
  return row;
}

export async function findSeller(db: Db, id: string): Promise<SellerRow | undefined> {
  const [row] = await db.select().from(sellers).where(eq(sellers.id, id));
  return row;
}

export async function sellerNameTaken(db: Db, name: string): Promise<boolean> {
  const [row] = await db.select({ id: sellers.id }).from(sellers).where(sql`lower(${sellers.name}) = lower(${name})`);
  return row !== undefined;
}

export async function sellerPage(db: Db, filter: { status?: SellerStatus | undefined; q?: string | undefined }, page: number, pageSize: number) {
  const where = and(
    filter.status ? eq(sellers.status, filter.status) : undefined,
    filter.q ? or(ilike(sellers.name, `%${escapeLike(filter.q)}%`), ilike(sellers.contactEmail, `%${escapeLike(filter.q)}%`)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db.select().from(sellers).where(where).orderBy(desc(sellers.createdAt), asc(sellers.id)).limit(pageSize).offset((page - 1) * pageSize),
    db.select({ value: count() }).from(sellers).where(where),
  ]);
  return { rows, total: total?.value ?? 0 };
}

export async function updateSeller(
  db: Db,
  id: string,
  set: Partial<Pick<SellerRow, 'status' | 'commissionBasisPoints' | 'commissionFixedCents' | 'holdDays' | 'webhookUrl' | 'webhookSecretSealed'>>,
): Promise<SellerRow | undefined> {
  const [row] = await db.update(sellers).set({ ...set, updatedAt: new Date() }).where(eq(sellers.id, id)).returning();
  return row;
}

// --- API keys ------------------------------------------------------------------------------------

export async function insertApiKey(db: Db, row: typeof sellerApiKeys.$inferInsert): Promise<void> {
  await db.insert(sellerApiKeys).values(row);
}

export function apiKeysOf(db: Db, sellerId: string) {
  return db.select().from(sellerApiKeys).where(eq(sellerApiKeys.sellerId, sellerId)).orderBy(desc(sellerApiKeys.createdAt));
}

export async function deleteApiKey(db: Db, sellerId: string, id: string): Promise<boolean> {
  const deleted = await db.delete(sellerApiKeys).where(and(eq(sellerApiKeys.id, id), eq(sellerApiKeys.sellerId, sellerId))).returning({ id: sellerApiKeys.id });
  return deleted.length > 0;
}

/** Deletes every API key of the user's seller account; answers how many there were. */
export async function deleteApiKeysOfUser(db: Db, userId: string): Promise<number> {
  const deleted = await db
    .delete(sellerApiKeys)
    .where(inArray(sellerApiKeys.sellerId, db.select({ id: sellers.id }).from(sellers).where(eq(sellers.userId, userId))))
    .returning({ id: sellerApiKeys.id });
  return deleted.length;
}

/** The seller whose API key hashes to this, with the key's use recorded. */
export async function sellerOfApiKey(db: Db, keyHash: string): Promise<SellerRow | undefined> {
  const [key] = await db.update(sellerApiKeys).set({ lastUsedAt: new Date() }).where(eq(sellerApiKeys.keyHash, keyHash)).returning({ sellerId: sellerApiKeys.sellerId });
  return key ? findSeller(db, key.sellerId) : undefined;
}

/** Offers and available keys per seller (the offers module's read model). */
export async function sellerCounts(db: Db, sellerIds: string[]): Promise<Map<string, { offers: number; keys: number }>> {
  const counts = new Map(sellerIds.map((id) => [id, { offers: 0, keys: 0 }]));
  if (sellerIds.length === 0) return counts;
  const rows = await db
    .select({ sellerId: offerStock.sellerId, offers: count(), keys: sql<number>`coalesce(sum(${offerStock.availableKeys}), 0)::int` })
    .from(offerStock)
    .where(inArray(offerStock.sellerId, sellerIds))
    .groupBy(offerStock.sellerId);
  for (const row of rows) counts.set(row.sellerId, { offers: row.offers, keys: row.keys });
  return counts;
}

/** A page of a seller's paid lines, newest first, and how many there are (the orders module's read model). */
export async function salesOf(db: Db, sellerId: string, page: number, pageSize: number) {
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(soldLines)
      .where(eq(soldLines.sellerId, sellerId))
      .orderBy(desc(soldLines.paidAt), asc(soldLines.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(soldLines).where(eq(soldLines.sellerId, sellerId)),
  ]);
  return { total: counted?.total ?? 0, rows: rows.map((row) => ({ ...row, paidAt: row.paidAt! })) };
}

export function isHouse(sellerId: string): boolean {
  return sellerId === HOUSE_SELLER_ID;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}


/** Sellers' uploaded keys not yet under the current encryption key, for `keys:reencrypt` (library/reencrypt.ts). */

/** Registers a seller's endpoint; its sealed secret is kept when it has one, else `secretSealed` is. */
export async function setWebhook(db: Db, sellerId: string, url: string, secretSealed: string | null): Promise<void> {
  await db.execute(
    sql`update sellers set webhook_url = ${url}, updated_at = now(),
          webhook_secret_sealed = coalesce(webhook_secret_sealed, ${secretSealed}),
          webhook_created_at = coalesce(webhook_created_at, now())
        where id = ${sellerId}`,
  );
}

/**
 * The sellers' webhook secrets as `keys:reencrypt` moves them under a new key: each is sealed with the
 * context `seller-webhook:<seller id>`, which is the id the script decrypts and encrypts it with.
 */
export const sealedWebhookSecrets = {
  name: "sellers' webhook secrets",
  notUnder: (db: Db, currentPrefix: string, afterId: string, limit: number) =>
    queryRows<{ id: string; serialEncrypted: string }>(
      db,
      sql`select 'seller-webhook:' || id as id, webhook_secret_sealed as "serialEncrypted" from sellers
          where webhook_secret_sealed is not null and 'seller-webhook:' || id > ${afterId} and webhook_secret_sealed not like ${`${currentPrefix}%`}
          order by 1 limit ${limit}`,
    ),
  replace: async (db: Db, id: string, previous: string, next: string) =>
    (await queryRows(db, sql`update sellers set webhook_secret_sealed = ${next} where id = ${id.slice('seller-webhook:'.length)} and webhook_secret_sealed = ${previous} returning id`)).length > 0,
};
