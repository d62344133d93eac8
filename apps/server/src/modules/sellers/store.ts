// Data access for sellers, their API keys, offers and uploaded keys, and the market columns of the
// catalogue's games rows: each game's best seller offer and the keys all sellers have of it, which the
// catalogue shows beside the house's own price and stock (decision 029).
import { and, asc, count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import { HOUSE_SELLER_ID, type OfferDelivery, type SellerStatus } from '@keystore/contract';
import { inList, queryRows, type Db } from '../../db/client.ts';
import type { GameStock } from '../../platform/events.ts';
import { games } from '../catalog/schema.ts';
import { offers, sellerApiKeys, sellerKeys, sellers } from './schema.ts';

export type SellerRow = typeof sellers.$inferSelect;
export type OfferRow = typeof offers.$inferSelect;
export type SellerKeyRow = typeof sellerKeys.$inferSelect;


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

export async function updateSeller(db: Db, id: string, set: Partial<Pick<SellerRow, 'status' | 'commissionBasisPoints' | 'commissionFixedCents' | 'holdDays'>>): Promise<SellerRow | undefined> {
  const [row] = await db.update(sellers).set({ ...set, updatedAt: new Date() }).where(eq(sellers.id, id)).returning();
  return row;
}

/** Offers and available keys per seller. */
export async function sellerCounts(db: Db, sellerIds: string[]): Promise<Map<string, { offers: number; keys: number }>> {
  const counts = new Map(sellerIds.map((id) => [id, { offers: 0, keys: 0 }]));
  if (sellerIds.length === 0) return counts;
  const rows = await queryRows<{ seller_id: string; offers: number; keys: number }>(
    db,
    sql`select o.seller_id, count(*)::int as offers,
          coalesce(sum((select count(*) from seller_keys k where k.offer_id = o.id and k.state = 'available')), 0)::int as keys
        from offers o where o.seller_id in ${inList(sellerIds)} group by o.seller_id`,
  );
  for (const row of rows) counts.set(row.seller_id, { offers: row.offers, keys: row.keys });
  return counts;
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

/** The seller whose API key hashes to this, with the key's use recorded. */
export async function sellerOfApiKey(db: Db, keyHash: string): Promise<SellerRow | undefined> {
  const [key] = await db.update(sellerApiKeys).set({ lastUsedAt: new Date() }).where(eq(sellerApiKeys.keyHash, keyHash)).returning({ sellerId: sellerApiKeys.sellerId });
  return key ? findSeller(db, key.sellerId) : undefined;
}

// --- Offers --------------------------------------------------------------------------------------

/** An offer with its game's title, its available keys and its keys sold. */
export interface OfferView extends OfferRow {
  title: string;
  stock: number;
  sold: number;
}

const offerView = (where: ReturnType<typeof sql>) => sql`
  select o.id, o.seller_id as "sellerId", o.game_id as "gameId", o.net_price_cents as "netPriceCents", o.price_cents as "priceCents",
    o.status, o.delivery, o.declared_stock as "declaredStock", o.hidden_until as "hiddenUntil", o.breaker_trips as "breakerTrips", o.failure_streak as "failureStreak",
    o.created_at as "createdAt", o.updated_at as "updatedAt", g.title,
    (case when o.delivery = 'declared' then o.declared_stock
          else (select count(*) from seller_keys k where k.offer_id = o.id and k.state = 'available') end)::int as stock,
    (select count(*) from seller_keys k where k.offer_id = o.id and k.state = 'sold')::int as sold
  from offers o join games g on g.id = o.game_id where ${where} order by o.created_at desc, o.id`;

export function offersOfSeller(db: Db, sellerId: string): Promise<OfferView[]> {
  return queryRows<OfferView>(db, offerView(sql`o.seller_id = ${sellerId}`));
}

export async function offerOfSeller(db: Db, sellerId: string, id: string): Promise<OfferView | undefined> {
  const [row] = await queryRows<OfferView>(db, offerView(sql`o.seller_id = ${sellerId} and o.id = ${id}`));
  return row;
}

export async function insertOffer(db: Db, row: typeof offers.$inferInsert): Promise<boolean> {
  const written = await db.insert(offers).values(row).onConflictDoNothing().returning({ id: offers.id });
  return written.length > 0;
}

export async function updateOffer(
  db: Db,
  sellerId: string,
  id: string,
  set: Partial<Pick<OfferRow, 'netPriceCents' | 'priceCents' | 'status' | 'delivery' | 'declaredStock' | 'failureStreak' | 'breakerTrips' | 'hiddenUntil'>>,
): Promise<OfferRow | undefined> {
  const [row] = await db
    .update(offers)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(offers.id, id), eq(offers.sellerId, sellerId)))
    .returning();
  return row;
}

/** Every offer of some sellers (all when `sellerIds` is undefined), for a new price after a commission change. */
export function offersToReprice(db: Db, sellerIds: string[]): Promise<Array<{ id: string; sellerId: string; gameId: string; netPriceCents: number; priceCents: number }>> {
  if (sellerIds.length === 0) return Promise.resolve([]);
  return db
    .select({ id: offers.id, sellerId: offers.sellerId, gameId: offers.gameId, netPriceCents: offers.netPriceCents, priceCents: offers.priceCents })
    .from(offers)
    .where(sql`${offers.sellerId} in ${inList(sellerIds)}`);
}

export async function setOfferPrices(db: Db, prices: Array<{ id: string; priceCents: number }>): Promise<void> {
  for (let start = 0; start < prices.length; start += 1000) {
    const part = prices.slice(start, start + 1000);
    await db.execute(sql`update offers o set price_cents = v.price, updated_at = now()
      from (select unnest(${sql`array[${sql.join(part.map((p) => sql`${p.id}`), sql`, `)}]::text[]`}) as id,
                   unnest(${sql`array[${sql.join(part.map((p) => sql`${p.priceCents}`), sql`, `)}]::int[]`}) as price) v
      where o.id = v.id`);
  }
}

export function gamesOfSellers(db: Db, sellerIds: string[]): Promise<Array<{ gameId: string }>> {
  if (sellerIds.length === 0) return Promise.resolve([]);
  return db.selectDistinct({ gameId: offers.gameId }).from(offers).where(sql`${offers.sellerId} in ${inList(sellerIds)}`);
}

export async function gameExists(db: Db, gameId: string): Promise<{ title: string } | undefined> {
  const [row] = await db.select({ title: games.title }).from(games).where(and(eq(games.id, gameId), eq(games.hidden, false)));
  return row;
}

// --- Keys ----------------------------------------------------------------------------------------

/** Stores new keys; a serial already held for the game (any seller, any state) is skipped. Answers how many were stored. */
export async function insertKeys(db: Db, rows: Array<typeof sellerKeys.$inferInsert>): Promise<number> {
  if (rows.length === 0) return 0;
  const written = await db.insert(sellerKeys).values(rows).onConflictDoNothing().returning({ id: sellerKeys.id });
  return written.length;
}

/** Which of these library hashes were ever sold for the game (by the house or a seller). */
export async function soldHashes(db: Db, gameId: string, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await queryRows<{ serial_hash: string }>(
    db,
    sql`select serial_hash from product_keys where game_id = ${gameId} and serial_hash in ${inList(hashes)}`,
  );
  return new Set(rows.map((row) => row.serial_hash));
}

export function keysOfOffer(db: Db, offerId: string): Promise<Array<Pick<SellerKeyRow, 'id' | 'masked' | 'state'>>> {
  return db
    .select({ id: sellerKeys.id, masked: sellerKeys.masked, state: sellerKeys.state })
    .from(sellerKeys)
    .where(eq(sellerKeys.offerId, offerId))
    .orderBy(asc(sellerKeys.createdAt), asc(sellerKeys.id))
    .limit(5000);
}

/** Deletes an available key of the offer: 'deleted', 'not-available' (reserved or sold), or 'missing'. */
export async function deleteAvailableKey(db: Db, offerId: string, keyId: string): Promise<'deleted' | 'not-available' | 'missing'> {
  const deleted = await db
    .delete(sellerKeys)
    .where(and(eq(sellerKeys.id, keyId), eq(sellerKeys.offerId, offerId), eq(sellerKeys.state, 'available')))
    .returning({ id: sellerKeys.id });
  if (deleted.length > 0) return 'deleted';
  const [left] = await db.select({ id: sellerKeys.id }).from(sellerKeys).where(and(eq(sellerKeys.id, keyId), eq(sellerKeys.offerId, offerId)));
  return left ? 'not-available' : 'missing';
}

// --- The market: what the catalogue shows of sellers' offers ----------------------------------------

/** A seller's offer of a game as placement sees it: active, its seller active, with keys. */
export interface MarketOffer {
  offerId: string;
  sellerId: string;
  sellerName: string;
  priceCents: number;
  netPriceCents: number;
  stock: number;
  createdAt: number;
  /** How its keys come: from the supplier (the house), uploaded, or declared and handed over when sold. */
  delivery: OfferDelivery | 'supplier';
  /** The seller's score (the house counts as a new seller's 90). */
  score: number;
}

/** Offers best first: the lower price, then the seller with the higher score, then the older offer (issue 24). */
export const bestOfferFirst = (a: MarketOffer, b: MarketOffer) => a.priceCents - b.priceCents || b.score - a.score || a.createdAt - b.createdAt;

/** The sellers' offers of a game that can be bought now, best first (price, then the older offer). */
export async function marketOffers(db: Db, gameId: string): Promise<MarketOffer[]> {
  const rows = await queryRows<{ offer_id: string; seller_id: string; seller_name: string; price_cents: number; net_price_cents: number; stock: number; created_at: number; delivery: OfferDelivery; score: number }>(
    db,
    sql`select o.id as offer_id, o.seller_id, s.name as seller_name, o.price_cents, o.net_price_cents, o.delivery, s.score,
          (extract(epoch from o.created_at) * 1000)::float8 as created_at, ${OFFER_STOCK} as stock
        from offers o join sellers s on s.id = o.seller_id
        where o.game_id = ${gameId} and ${SELLABLE_OFFER}`,
  );
  return rows
    .filter((row) => row.stock > 0)
    .map((row) => ({
      offerId: row.offer_id,
      sellerId: row.seller_id,
      sellerName: row.seller_name,
      priceCents: row.price_cents,
      netPriceCents: row.net_price_cents,
      stock: row.stock,
      createdAt: Number(row.created_at),
      delivery: row.delivery,
      score: row.score,
    }))
    .sort(bestOfferFirst);
}

/**
 * Rewrites the market columns of these games from their offers (the cheapest sellable seller offer and
 * the sellers' keys in all), in the caller's transaction; answers each game's shown stock and price.
 * Each games row is locked first (in id order), so the counts read after it include every change
 * committed before, and two writers over one game take turns.
 */
export async function refreshMarket(tx: Db, gameIds: Iterable<string>): Promise<GameStock[]> {
  const ids = [...new Set(gameIds)].sort();
  if (ids.length === 0) return [];
  await lockGames(tx, ids);
  return queryRows<GameStock>(
    tx,
    sql`update games g set market_price_cents = m.price, market_stock = m.stock, updated_at = now()
        from (
          select g2.id,
            (select min(o.price_cents) from offers o join sellers s on s.id = o.seller_id
               where o.game_id = g2.id and ${SELLABLE_OFFER} and ${OFFER_STOCK} > 0) as price,
            (select coalesce(sum(${OFFER_STOCK}), 0) from offers o join sellers s on s.id = o.seller_id
               where o.game_id = g2.id and ${SELLABLE_OFFER})::int as stock
          from games g2 where g2.id in ${inList(ids)}
        ) m
        where g.id = m.id
        returning g.id as "gameId", ${SHOWN_STOCK} as stock, ${SHOWN_PRICE} as "priceCents"`,
  );
}

/** An offer `o` of a seller `s` the store sells from: both active, and not held out by the circuit breaker. */
const SELLABLE_OFFER = sql.raw(`o.status = 'active' and s.status = 'active' and not s.below_floor and (o.hidden_until is null or o.hidden_until <= now())`);
/** What an offer `o` can sell now: the keys a declared offer still promises, or its available uploaded keys. */
export const OFFER_STOCK = sql.raw(
  `(case when o.delivery = 'declared' then o.declared_stock else (select count(*) from seller_keys k where k.offer_id = o.id and k.state = 'available') end)::int`,
);

/**
 * Locks games rows in id order, the lock an UPDATE takes. Placement locks a game's row before its
 * offers' (declared stock, keys); every writer of offers over games already on sale takes the games
 * first too, so the two orders never meet in a deadlock.
 */
export async function lockGames(tx: Db, gameIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(gameIds)].sort();
  if (ids.length > 0) await tx.execute(sql`select id from games where id in ${inList(ids)} order by id for no key update`);
}

/** What a game shows: the house's stock (none once it left the feed) and every seller's. */
export const SHOWN_STOCK = sql.raw(`(case when g.active then g.stock else 0 end + g.market_stock)`);
/** What a game shows: the best offer's price, the house's unless a seller's is cheaper or the house has none to sell. */
export const SHOWN_PRICE = sql.raw(
  `(case when g.market_price_cents is not null and (g.market_price_cents < g.price_cents or not g.active or g.stock = 0) then g.market_price_cents else g.price_cents end)`,
);

/** Reserves up to `quantity` available keys of an offer for an order line; answers how many. */
export async function reserveKeys(tx: Db, offerId: string, orderId: string, lineId: string, quantity: number): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`update seller_keys set state = 'reserved', order_id = ${orderId}, line_id = ${lineId}
        where id in (select id from seller_keys where offer_id = ${offerId} and state = 'available' order by created_at, id limit ${quantity} for update)
        returning id`,
  );
  return rows.length;
}

/** Puts the reserved keys of these lines back on sale; answers the games they belong to. */
export async function releaseLineKeys(tx: Db, lineIds: string[]): Promise<string[]> {
  if (lineIds.length === 0) return [];
  const rows = await queryRows<{ game_id: string }>(
    tx,
    sql`update seller_keys set state = 'available', order_id = null, line_id = null
        where line_id in ${inList(lineIds)} and state = 'reserved' returning game_id`,
  );
  return [...new Set(rows.map((row) => row.game_id))];
}

/** The reserved keys of these lines, marked sold; answers them (encrypted) with their line. */
export function sellLineKeys(tx: Db, lineIds: string[]): Promise<Array<{ id: string; line_id: string; serial_encrypted: string }>> {
  if (lineIds.length === 0) return Promise.resolve([]);
  return queryRows(
    tx,
    sql`update seller_keys set state = 'sold', sold_at = now()
        where line_id in ${inList(lineIds)} and state in ('reserved', 'sold') returning id, line_id, serial_encrypted`,
  );
}

/** Sold keys of a refunded line that nobody saw go back on sale: answers the games they belong to. */
export async function restockKeys(tx: Db, keyIds: string[]): Promise<string[]> {
  if (keyIds.length === 0) return [];
  const rows = await queryRows<{ game_id: string }>(
    tx,
    sql`update seller_keys set state = 'available', order_id = null, line_id = null, sold_at = null
        where id in ${inList(keyIds)} and state = 'sold' returning game_id`,
  );
  return [...new Set(rows.map((row) => row.game_id))];
}

/** The sold seller keys of these lines: seller key id, line, and the library hash they were delivered under. */
export function soldKeysOfLines(tx: Db, lineIds: string[]): Promise<Array<{ id: string; line_id: string; library_hash: string; game_id: string }>> {
  if (lineIds.length === 0) return Promise.resolve([]);
  return queryRows(tx, sql`select id, line_id, library_hash, game_id from seller_keys where line_id in ${inList(lineIds)} and state = 'sold'`);
}

/** A seller's order lines (paid orders), newest first. */
export async function salesOf(db: Db, sellerId: string, page: number, pageSize: number) {
  const [counted] = await queryRows<{ total: number }>(
    db,
    sql`select count(*)::int as total from order_lines l join orders o on o.id = l.order_id
        where l.seller_id = ${sellerId} and o.paid_at is not null`,
  );
  const rows = await queryRows<{
    id: string; order_id: string; paid_at: Date; game_id: string; title: string; quantity: number; unit_price_cents: number;
    commission_cents: number | null; refunded: boolean;
  }>(
    db,
    sql`select l.id, l.order_id, o.paid_at, l.game_id, l.title, l.quantity, l.unit_price_cents, l.commission_cents,
          (l.refunded_at is not null or o.status = 'Refunded') as refunded
        from order_lines l join orders o on o.id = l.order_id
        where l.seller_id = ${sellerId} and o.paid_at is not null
        order by o.paid_at desc, l.id limit ${pageSize} offset ${(page - 1) * pageSize}`,
  );
  return { total: counted?.total ?? 0, rows: rows.map((row) => ({ ...row, paid_at: new Date(row.paid_at) })) };
}

export function isHouse(sellerId: string): boolean {
  return sellerId === HOUSE_SELLER_ID;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}


/** Sellers' uploaded keys not yet under the current encryption key, for `keys:reencrypt` (library/reencrypt.ts). */
export const sealedSellerKeys = {
  name: "sellers' keys",
  notUnder: (db: Db, currentPrefix: string, afterId: string, limit: number) =>
    db
      .select({ id: sellerKeys.id, serialEncrypted: sellerKeys.serialEncrypted })
      .from(sellerKeys)
      .where(and(sql`${sellerKeys.id} > ${afterId}`, sql`${sellerKeys.serialEncrypted} not like ${`${currentPrefix}%`}`))
      .orderBy(asc(sellerKeys.id))
      .limit(limit),
  replace: async (db: Db, id: string, previous: string, next: string) =>
    (await db.update(sellerKeys).set({ serialEncrypted: next }).where(and(eq(sellerKeys.id, id), eq(sellerKeys.serialEncrypted, previous))).returning({ id: sellerKeys.id })).length > 0,
};
