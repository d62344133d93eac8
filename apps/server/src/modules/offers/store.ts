// Data access for offers and their keys (decision 031): sellers' offers, the keys they uploaded or
// handed over, each key's moves (reserved by an order line, sold, back on sale), and what the market
// of a game is (its cheapest sellable seller offer and the sellers' keys in all), which the catalogue's
// games rows show beside the house's own price and stock.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { OfferDelivery } from '@keystore/contract';
import { inList, queryRows, type Db } from '../../db/client.ts';
import type { MarketColumns } from '../catalog/ports.ts';
import { offers, sellerKeys } from './schema.ts';

export type OfferRow = typeof offers.$inferSelect;
export type SellerKeyRow = typeof sellerKeys.$inferSelect;

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
  from offers o join game_facts g on g.id = o.game_id where ${where} order by o.created_at desc, o.id`;

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

// --- Keys ----------------------------------------------------------------------------------------

/** Stores new keys; a serial already held for the game (any seller, any state) is skipped. Answers how many were stored. */
export async function insertKeys(db: Db, rows: Array<typeof sellerKeys.$inferInsert>): Promise<number> {
  if (rows.length === 0) return 0;
  const written = await db.insert(sellerKeys).values(rows).onConflictDoNothing().returning({ id: sellerKeys.id });
  return written.length;
}

/** How a key sold for a line (by the library's hash of its serial) was shown masked; undefined for none. */
export async function maskedSoldKey(db: Db, lineId: string, libraryHash: string): Promise<string | undefined> {
  const [row] = await db
    .select({ masked: sellerKeys.masked })
    .from(sellerKeys)
    .where(and(eq(sellerKeys.lineId, lineId), eq(sellerKeys.libraryHash, libraryHash)))
    .limit(1);
  return row?.masked;
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
        from offers o join seller_facts s on s.id = o.seller_id
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
 * The market of these games as their offers make it now: the cheapest sellable seller offer with keys,
 * and the keys all sellers can sell. Read after the games rows were locked (in the caller's
 * transaction), so it counts every change committed before.
 */
export async function marketsOf(tx: Db, gameIds: string[]): Promise<MarketColumns[]> {
  if (gameIds.length === 0) return [];
  const rows = await queryRows<{ game_id: string; price: number | null; stock: number }>(
    tx,
    sql`select ids.id as game_id,
          (select min(o.price_cents) from offers o join seller_facts s on s.id = o.seller_id
             where o.game_id = ids.id and ${SELLABLE_OFFER} and ${OFFER_STOCK} > 0) as price,
          (select coalesce(sum(${OFFER_STOCK}), 0) from offers o join seller_facts s on s.id = o.seller_id
             where o.game_id = ids.id and ${SELLABLE_OFFER})::int as stock
        from unnest(${sql`array[${sql.join(gameIds.map((id) => sql`${id}`), sql`, `)}]::text[]`}) as ids(id)`,
  );
  return rows.map((row) => ({ gameId: row.game_id, priceCents: row.price, stock: row.stock }));
}

/** An offer `o` of a seller `s` the store sells from: both active, and not held out by the circuit breaker. */
const SELLABLE_OFFER = sql.raw(`o.status = 'active' and s.status = 'active' and not s.below_floor and (o.hidden_until is null or o.hidden_until <= now())`);
/** What an offer `o` can sell now: the keys a declared offer still promises, or its available uploaded keys. */
export const OFFER_STOCK = sql.raw(
  `(case when o.delivery = 'declared' then o.declared_stock else (select count(*) from seller_keys k where k.offer_id = o.id and k.state = 'available') end)::int`,
);

/** Reserves up to `quantity` available keys of an offer for an order line; answers how many. */
export async function takeKeys(tx: Db, offerId: string, orderId: string, lineId: string, quantity: number): Promise<number> {
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
export function sellLineKeys(tx: Db, lineIds: string[]): Promise<Array<{ id: string; lineId: string; serialEncrypted: string; delivery: OfferDelivery }>> {
  if (lineIds.length === 0) return Promise.resolve([]);
  return queryRows(
    tx,
    sql`update seller_keys k set state = 'sold', sold_at = now() from offers o
        where o.id = k.offer_id and k.line_id in ${inList(lineIds)} and k.state in ('reserved', 'sold')
        returning k.id, k.line_id as "lineId", k.serial_encrypted as "serialEncrypted", o.delivery`,
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

/** Takes one available uploaded key of an offer for a claimed line, sold at once; answers it sealed. */
export async function takeReplacementKey(db: Db, offerId: string, orderId: string, lineId: string): Promise<{ id: string; serialEncrypted: string } | undefined> {
  const [row] = await queryRows<{ id: string; serialEncrypted: string }>(
    db,
    sql`update seller_keys set state = 'sold', order_id = ${orderId}, line_id = ${lineId}, sold_at = now()
        where id = (select id from seller_keys where offer_id = ${offerId} and state = 'available' order by created_at, id limit 1 for update skip locked)
        returning id, serial_encrypted as "serialEncrypted"`,
  );
  return row;
}

/** The key a declared seller handed over for a replacement reservation, sold at once; answers it sealed. */
export async function sellProvidedKey(db: Db, offerId: string, lineId: string): Promise<{ id: string; serialEncrypted: string } | undefined> {
  const [row] = await queryRows<{ id: string; serialEncrypted: string }>(
    db,
    sql`update seller_keys set state = 'sold', sold_at = now()
        where id = (select id from seller_keys where offer_id = ${offerId} and line_id = ${lineId} and state = 'reserved' order by created_at, id limit 1 for update)
        returning id, serial_encrypted as "serialEncrypted"`,
  );
  return row;
}
