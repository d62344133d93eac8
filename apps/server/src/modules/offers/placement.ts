// Reserving an order's keys across the offers of each game (issue 23). Each line is filled from the
// game's offers cheapest first (ties: the older offer), and split over several when one has too few:
// the house's (the supplier's feed: a reservation on the games row) and sellers' (their uploaded keys,
// reserved by the line). Games are taken in id order and each games row is locked first, so two
// orders over the same games take turns and cannot deadlock; a key is reserved by one line at a time.
import { catalogMessages, HOUSE_SELLER_ID, HOUSE_SELLER_NAME, orderMessages, sellerMessages, centsToEuro } from '@keystore/contract';
import type { Db } from '../../db/client.ts';
import { Conflict, HttpError, NotFound } from '../../platform/errors.ts';
import type { GameStock } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import type { HouseOnlyTake } from '../catalog/ports.ts';
import { gameOfHouseOffer, houseMarketOffer, houseOfferId } from './house.ts';
import type { Market } from './market.ts';
import { reserveDeclared } from './reservations.ts';
import { bestOfferFirst, marketOffers, takeKeys, type MarketOffer } from './store.ts';

/**
 * An order line as placement makes it: `quantity` keys of a game from one offer, at the offer's price,
 * with the game's snapshot. The orders module stores it as its line.
 */
export interface PlacedLine {
  id: string;
  orderId: string;
  position: number;
  gameId: string;
  supplierProductId: string;
  title: string;
  image: string | null;
  platform: string;
  quantity: number;
  unitPriceCents: number;
  supplierPriceCents: number;
  offerId: string;
  sellerId: string;
  sellerName: string;
  commissionCents: number | null;
  refundedAt: Date | null;
  refundReason: string | null;
  refundOwedAt: Date | null;
}

/** A line on an offer, as the moves of its keys need it. */
export type LineOnOffer = Pick<PlacedLine, 'id' | 'orderId' | 'gameId' | 'quantity' | 'offerId' | 'sellerId' | 'unitPriceCents' | 'title' | 'refundedAt'>;

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
export async function takeFromOffers(market: Market, tx: Db, orderId: string, requests: OrderRequestLine[]): Promise<{ lines: PlacedLine[]; stock: GameStock[] }> {
  const lines: Array<PlacedLine & { request: number }> = [];
  const dearer: Array<{ gameId: string; price: number }> = [];
  const sorted = requests.map((request, index) => ({ ...request, index })).sort((a, b) => (a.gameId < b.gameId ? -1 : a.gameId > b.gameId ? 1 : (a.offerId ?? '') < (b.offerId ?? '') ? -1 : 1));
  const shown: GameStock[] = [];
  const touched = new Set<string>();
  for (const request of sorted) {
    // The usual case in one statement, as before the marketplace: no seller has keys of the game (and
    // none was asked for), so the house's offer is the only one; the conditional update never oversells.
    if (request.offerId === undefined || gameOfHouseOffer(request.offerId) === request.gameId) {
      const only = await market.games.takeHouseOnly(tx, request.gameId, request.quantity);
      if (only) {
        lines.push(lineOf(orderId, only, request, { offerId: houseOfferId(only.id), sellerId: HOUSE_SELLER_ID, sellerName: HOUSE_SELLER_NAME, priceCents: only.priceCents, netPriceCents: only.supplierPriceCents }, request.quantity));
        shown.push({ gameId: only.id, stock: only.shownStock, priceCents: only.shownPrice });
        if (request.expectedPriceCents !== undefined && only.priceCents > request.expectedPriceCents) dearer.push({ gameId: only.id, price: centsToEuro(only.priceCents) });
        continue;
      }
    }
    touched.add(request.gameId);
    const game = await market.games.lockGame(tx, request.gameId);
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
      const got = await takeFromOffer(market, tx, offer, game.id, orderId, lineId, take);
      if (got === 0) continue;
      remaining -= got;
      highest = Math.max(highest, offer.priceCents);
      lines.push(lineOf(orderId, game, request, offer, got, lineId));
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
  const refreshed = await market.refresh(tx, touched);
  return { lines: ordered, stock: [...shown.filter((game) => !touched.has(game.gameId)), ...refreshed] };
}

type LineOffer = Pick<MarketOffer, 'offerId' | 'sellerId' | 'sellerName' | 'priceCents' | 'netPriceCents'>;

/** An order line of `quantity` keys of a game from one offer, with the game's snapshot. */
function lineOf(
  orderId: string,
  game: Pick<HouseOnlyTake, 'id' | 'title' | 'image' | 'platform' | 'supplierProductId'>,
  request: { index: number },
  offer: LineOffer,
  quantity: number,
  id = newId(),
): PlacedLine & { request: number } {
  return {
    id,
    orderId,
    position: 0,
    gameId: game.id,
    supplierProductId: game.supplierProductId,
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
    refundOwedAt: null,
    request: request.index,
  };
}

/**
 * Reserves `quantity` keys of one offer for a line (the game's row is locked by the caller): the house's
 * on the games row, an uploaded offer's keys, or a declared offer's promised stock with a reservation
 * its seller is asked to confirm (issue 24). Answers how many were reserved.
 */
async function takeFromOffer(market: Market, tx: Db, offer: MarketOffer, gameId: string, orderId: string, lineId: string, quantity: number): Promise<number> {
  if (offer.delivery === 'supplier') return (await market.games.takeHouseStock(tx, gameId, quantity)) ? quantity : 0;
  if (offer.delivery === 'declared') return (await reserveDeclared(tx, offer.offerId, orderId, lineId, quantity)) ? quantity : 0;
  return takeKeys(tx, offer.offerId, orderId, lineId, quantity);
}

/** Where a failed line went: to another offer, nowhere at that price (the cheapest now), or nowhere at all. */
export type Reroute = { moved: true; offer: MarketOffer } | { moved: false; cheapestCents: number | undefined };

/**
 * Finds a line whose seller failed the next offer of its game that can take the whole quantity at no
 * more than `maxUnitCents` a key, skipping `skip` (the offers that failed it, and those other lines of
 * its order take), best first, the house counted, and reserves it for the line. The buyer's price
 * stays; the caller rewrites the line's seller, net and commission to the new offer's. In the caller's
 * transaction.
 */
export async function rerouteLine(market: Market, tx: Db, line: LineOnOffer, maxUnitCents: number, skip: Set<string>): Promise<Reroute> {
  const game = await market.games.lockGame(tx, line.gameId);
  if (!game) return { moved: false, cheapestCents: undefined };
  const house: MarketOffer[] = game.active && !game.hidden && game.stock > 0 ? [houseMarketOffer(game)] : [];
  const candidates = [...house, ...(await marketOffers(tx, game.id))].filter((offer) => !skip.has(offer.offerId) && offer.stock >= line.quantity).sort(bestOfferFirst);
  for (const offer of candidates.filter((candidate) => candidate.priceCents <= maxUnitCents)) {
    // All of the quantity or nothing: a savepoint undoes keys reserved for part of it.
    const whole = await tx
      .transaction(async (savepoint) => {
        if ((await takeFromOffer(market, savepoint, offer, game.id, line.orderId, line.id, line.quantity)) < line.quantity) throw new PartlyReserved();
        return true;
      })
      .catch((error: unknown) => {
        if (error instanceof PartlyReserved) return false;
        throw error;
      });
    if (!whole) continue;
    await market.refresh(tx, [game.id]);
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
export async function takeLinesAgain(market: Market, tx: Db, orderId: string, lines: LineOnOffer[]): Promise<GameStock[]> {
  for (const line of [...lines].sort((a, b) => (a.gameId < b.gameId ? -1 : 1))) {
    if (line.refundedAt) continue;
    if (line.sellerId === HOUSE_SELLER_ID) {
      if (!(await market.games.takeHouseStock(tx, line.gameId, line.quantity, true))) throw new Conflict(orderMessages.outOfStock(line.title, 0));
    } else {
      await market.lock(tx, [line.gameId]);
      // An uploaded offer's keys, or else a declared offer's stock (asked for again by its provide).
      const got = (await takeKeys(tx, line.offerId, orderId, line.id, line.quantity)) || ((await reserveDeclared(tx, line.offerId, orderId, line.id, line.quantity)) ? line.quantity : 0);
      if (got < line.quantity) throw new Conflict(sellerMessages.offerUnavailable);
    }
  }
  return market.refresh(tx, lines.map((line) => line.gameId));
}
