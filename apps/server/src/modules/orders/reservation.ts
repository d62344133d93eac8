// Reserving an order's keys across the offers of each game (issue 23). Each line is filled from the
// game's offers cheapest first (ties: the older offer), and split over several when one has too few:
// the house's (the supplier's feed: a reservation on the games row) and sellers' (their uploaded keys,
// reserved by the line). Games are taken in id order and each games row is locked first, so two
// orders over the same games take turns and cannot deadlock; a key is reserved by one line at a time.
import { and, eq, sql } from 'drizzle-orm';
import { catalogMessages, HOUSE_SELLER_ID, HOUSE_SELLER_NAME, orderMessages, sellerMessages, centsToEuro } from '@keystore/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { Conflict, HttpError, NotFound } from '../../platform/errors.ts';
import type { GameStock } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { games } from '../catalog/schema.ts';
import { bestOfferFirst, gameOfHouseOffer, houseMarketOffer, houseOfferId, marketOffers, refreshMarket, reserveKeys, SHOWN_PRICE, SHOWN_STOCK, type MarketOffer } from '../sellers/ports.ts';
import { reserveDeclared } from '../seller-delivery/ports.ts';
import { orderLines } from './schema.ts';
import type { OrderLineRow } from './store.ts';

/** A line of a request: a game, how many, and the offer and price the cart showed, when it knew them. */
export interface OrderRequestLine {
  gameId: string;
  quantity: number;
  offerId?: string | undefined;
  expectedPriceCents?: number | undefined;
}

/**
 * Reserves every request's keys for order `orderId` and answers its lines (one per offer used) and the
 * stock the games show after. Throws NotFound for a game not in the store, Conflict naming the first
 * game that cannot be covered, and a 409 with `prices` when the offers now cost more than the cart showed.
 */
export async function reserveFromOffers(tx: Db, orderId: string, requests: OrderRequestLine[]): Promise<{ lines: OrderLineRow[]; stock: GameStock[] }> {
  const lines: Array<OrderLineRow & { request: number }> = [];
  const dearer: Array<{ gameId: string; price: number }> = [];
  const sorted = requests.map((request, index) => ({ ...request, index })).sort((a, b) => (a.gameId < b.gameId ? -1 : a.gameId > b.gameId ? 1 : (a.offerId ?? '') < (b.offerId ?? '') ? -1 : 1));
  const shown: GameStock[] = [];
  const touched = new Set<string>();
  for (const request of sorted) {
    // The usual case in one statement, as before the marketplace: no seller has keys of the game (and
    // none was asked for), so the house's offer is the only one; the conditional update never oversells.
    if (request.offerId === undefined || gameOfHouseOffer(request.offerId) === request.gameId) {
      const [only] = await queryRows<HouseOnly>(
        tx,
        sql`update games g set reserved = g.reserved + ${request.quantity}
            where g.id = ${request.gameId} and g.active and not g.hidden and g.stock >= ${request.quantity} and g.market_stock = 0
            returning g.id, g.title, g.image, g.platform, g.price_cents, g.supplier_price_cents, g.supplier_product_id,
              ${SHOWN_STOCK} as shown_stock, ${SHOWN_PRICE} as shown_price`,
      );
      if (only) {
        lines.push(lineOf(orderId, only, request, { offerId: houseOfferId(only.id), sellerId: HOUSE_SELLER_ID, sellerName: HOUSE_SELLER_NAME, priceCents: only.price_cents, netPriceCents: only.supplier_price_cents }, request.quantity));
        shown.push({ gameId: only.id, stock: only.shown_stock, priceCents: only.shown_price });
        if (request.expectedPriceCents !== undefined && only.price_cents > request.expectedPriceCents) dearer.push({ gameId: only.id, price: centsToEuro(only.price_cents) });
        continue;
      }
    }
    touched.add(request.gameId);
    const [game] = await tx
      .select({
        id: games.id,
        title: games.title,
        image: games.image,
        platform: games.platform,
        priceCents: games.priceCents,
        supplierPriceCents: games.supplierPriceCents,
        supplierProductId: games.supplierProductId,
        stock: games.stock,
        active: games.active,
        hidden: games.hidden,
        marketStock: games.marketStock,
        createdAt: games.createdAt,
      })
      .from(games)
      .where(eq(games.id, request.gameId))
      // The lock an UPDATE takes, not FOR UPDATE: the key-share locks of foreign keys (order lines and
      // keys being written for this game elsewhere) must not wait on it, nor it on them.
      .for('no key update');
    // A game the owner hid is not in the store: not found, like one that never was.
    if (!game || game.hidden) throw new NotFound(catalogMessages.gameNotFound);
    const house: MarketOffer | undefined = game.active && game.stock > 0 ? houseMarketOffer(game) : undefined;
    const offers = [...(house ? [house] : []), ...(game.marketStock > 0 ? await marketOffers(tx, game.id) : [])]
      .filter((offer) => request.offerId === undefined || offer.offerId === request.offerId)
      .sort(bestOfferFirst);
    let remaining = request.quantity;
    let highest = 0;
    for (const offer of offers) {
      if (remaining === 0) break;
      const lineId = newId();
      const take = Math.min(remaining, offer.stock);
      const got = await reserveOffer(tx, offer, game.id, orderId, lineId, take);
      if (got === 0) continue;
      remaining -= got;
      highest = Math.max(highest, offer.priceCents);
      lines.push(lineOf(orderId, { id: game.id, title: game.title, image: game.image, platform: game.platform, supplier_product_id: game.supplierProductId }, request, offer, got, lineId));
    }
    if (remaining > 0) {
      if (request.offerId !== undefined) throw new Conflict(sellerMessages.offerUnavailable);
      const available = offers.reduce((sum, offer) => sum + offer.stock, 0);
      throw new Conflict(orderMessages.outOfStock(game.title, available));
    }
    if (request.expectedPriceCents !== undefined && highest > request.expectedPriceCents) dearer.push({ gameId: game.id, price: centsToEuro(highest) });
  }
  if (dearer.length > 0) throw new HttpError(409, sellerMessages.priceChanged, {}, { prices: dearer });
  // The lines in the order the cart listed its games, each game's cheapest offer first.
  const ordered = lines
    .sort((a, b) => a.request - b.request || a.unitPriceCents - b.unitPriceCents)
    .map(({ request: _request, ...line }, position) => ({ ...line, position }));
  const refreshed = await refreshMarket(tx, touched);
  return { lines: ordered, stock: [...shown.filter((game) => !touched.has(game.gameId)), ...refreshed] };
}

/** What the one-statement reservation of a house-only game answers. */
interface HouseOnly {
  id: string;
  title: string;
  image: string | null;
  platform: string;
  price_cents: number;
  supplier_price_cents: number;
  supplier_product_id: string;
  shown_stock: number;
  shown_price: number;
}

type LineOffer = Pick<MarketOffer, 'offerId' | 'sellerId' | 'sellerName' | 'priceCents' | 'netPriceCents'>;

/** An order line of `quantity` keys of a game from one offer, with the game's snapshot. */
function lineOf(
  orderId: string,
  game: Pick<HouseOnly, 'id' | 'title' | 'image' | 'platform' | 'supplier_product_id'>,
  request: { index: number },
  offer: LineOffer,
  quantity: number,
  id = newId(),
): OrderLineRow & { request: number } {
  return {
    id,
    orderId,
    position: 0,
    gameId: game.id,
    supplierProductId: game.supplier_product_id,
    title: game.title,
    image: game.image,
    platform: game.platform,
    quantity,
    unitPriceCents: offer.priceCents,
    // The house's keys are bought from the supplier at its price; a seller's net is what it receives.
    supplierPriceCents: offer.netPriceCents,
    offerId: offer.offerId,
    sellerId: offer.sellerId,
    sellerName: offer.sellerName,
    // A seller's commission is fixed now; the house's is known once its keys are bought.
    commissionCents: offer.sellerId === HOUSE_SELLER_ID ? null : offer.priceCents - offer.netPriceCents,
    refundedAt: null,
    refundReason: null,
    request: request.index,
  };
}

/**
 * Reserves `quantity` keys of one offer for a line (the game's row is locked by the caller): the house's
 * on the games row, an uploaded offer's keys, or a declared offer's promised stock with a reservation
 * its seller is asked to confirm (issue 24). Answers how many were reserved.
 */
async function reserveOffer(tx: Db, offer: MarketOffer, gameId: string, orderId: string, lineId: string, quantity: number): Promise<number> {
  if (offer.delivery === 'supplier') {
    const taken = await tx.update(games).set({ reserved: sql`${games.reserved} + ${quantity}` }).where(and(eq(games.id, gameId), sql`${games.stock} >= ${quantity}`)).returning({ id: games.id });
    return taken.length > 0 ? quantity : 0;
  }
  if (offer.delivery === 'declared') return (await reserveDeclared(tx, offer.offerId, orderId, lineId, quantity)) ? quantity : 0;
  return reserveKeys(tx, offer.offerId, orderId, lineId, quantity);
}

/** Where a failed line went: to another offer, nowhere at that price (the cheapest now), or nowhere at all. */
export type Reroute = { moved: true; offer: MarketOffer } | { moved: false; cheapestCents: number | undefined };

/**
 * Moves a line whose seller failed to the next offer of its game that can take the whole quantity at
 * no more than `maxUnitCents` a key, skipping `exclude` (the offers that failed it): best first, the
 * house counted. The buyer's price stays; the line's seller, net and commission become the new offer's
 * (a commission below zero is what the store adds of its own). In the caller's transaction.
 */
export async function rerouteLine(tx: Db, line: OrderLineRow, maxUnitCents: number, exclude: Set<string>): Promise<Reroute> {
  const [game] = await tx
    .select({ id: games.id, priceCents: games.priceCents, supplierPriceCents: games.supplierPriceCents, stock: games.stock, active: games.active, hidden: games.hidden, createdAt: games.createdAt })
    .from(games)
    .where(eq(games.id, line.gameId))
    .for('no key update');
  if (!game) return { moved: false, cheapestCents: undefined };
  const house: MarketOffer[] = game.active && !game.hidden && game.stock > 0 ? [houseMarketOffer(game)] : [];
  // An offer another line of the order already takes cannot take this one too (one line per offer in an
  // order: the supplier's keys are matched to lines by product), so the line goes elsewhere or is refunded.
  const taken = await queryRows<{ offer_id: string }>(tx, sql`select offer_id from order_lines where order_id = ${line.orderId} and id <> ${line.id}`);
  const skipped = new Set([...exclude, line.offerId, ...taken.map((row) => row.offer_id)]);
  const candidates = [...house, ...(await marketOffers(tx, game.id))].filter((offer) => !skipped.has(offer.offerId) && offer.stock >= line.quantity).sort(bestOfferFirst);
  for (const offer of candidates.filter((candidate) => candidate.priceCents <= maxUnitCents)) {
    // All of the quantity or nothing: a savepoint undoes keys reserved for part of it.
    const whole = await tx
      .transaction(async (savepoint) => {
        if ((await reserveOffer(savepoint, offer, game.id, line.orderId, line.id, line.quantity)) < line.quantity) throw new PartlyReserved();
        return true;
      })
      .catch((error: unknown) => {
        if (error instanceof PartlyReserved) return false;
        throw error;
      });
    if (!whole) continue;
    await tx
      .update(orderLines)
      .set({
        offerId: offer.offerId,
        sellerId: offer.sellerId,
        sellerName: offer.sellerName,
        supplierPriceCents: offer.netPriceCents,
        commissionCents: offer.sellerId === HOUSE_SELLER_ID ? null : line.unitPriceCents - offer.netPriceCents,
      })
      .where(eq(orderLines.id, line.id));
    await refreshMarket(tx, [game.id]);
    return { moved: true, offer };
  }
  return { moved: false, cheapestCents: candidates[0]?.priceCents };
}

/** Thrown to roll back a reservation that got less than the line's quantity. */
class PartlyReserved extends Error {}

/**
 * Takes again the keys of an order that lapsed before its money came: each line from its own offer, at
 * the quantity it had, or Conflict (the caller refunds the payment). Answers the games' shown stock after.
 */
export async function reserveLinesAgain(tx: Db, orderId: string, lines: OrderLineRow[]): Promise<GameStock[]> {
  for (const line of [...lines].sort((a, b) => (a.gameId < b.gameId ? -1 : 1))) {
    if (line.refundedAt) continue;
    if (line.sellerId === HOUSE_SELLER_ID) {
      const taken = await tx
        .update(games)
        .set({ reserved: sql`${games.reserved} + ${line.quantity}` })
        .where(and(eq(games.id, line.gameId), eq(games.active, true), eq(games.hidden, false), sql`${games.stock} >= ${line.quantity}`))
        .returning({ id: games.id });
      if (taken.length === 0) throw new Conflict(orderMessages.outOfStock(line.title, 0));
    } else {
      await tx.execute(sql`select id from games where id = ${line.gameId} for no key update`);
      // An uploaded offer's keys, or else a declared offer's stock (asked for again by its provide).
      const got = (await reserveKeys(tx, line.offerId, orderId, line.id, line.quantity)) || ((await reserveDeclared(tx, line.offerId, orderId, line.id, line.quantity)) ? line.quantity : 0);
      if (got < line.quantity) throw new Conflict(sellerMessages.offerUnavailable);
    }
  }
  return refreshMarket(tx, lines.map((line) => line.gameId));
}

/** A game's title, for a refusal that names it. */
export async function titleOfGame(tx: Db, gameId: string): Promise<string> {
  const [game] = await tx.select({ title: games.title }).from(games).where(eq(games.id, gameId));
  return game?.title ?? gameId;
}
