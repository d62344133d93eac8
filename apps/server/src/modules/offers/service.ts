// Offers and everything that moves their stock (decision 031): a seller's offers and uploaded keys,
// the house's offer (the catalogue's games row, whose reservations the catalogue writes when asked
// here), the best-offer choice at placement, declared stock reserved and handed over through the
// seller's webhook (declared.ts), failover to the next offer, and keys going back on sale. Orders and
// claims ask through the methods below, named by what they mean; none of them touches an offer, a key
// or a reservation. Each method that joins its caller's transaction takes it first.
//
// Words: an order line *takes* keys (the house's stock on the games row, a seller's uploaded keys, or a
// declared offer's promised stock); a *reservation* is only a declared seller's (seller_reservations),
// which it confirms and hands over; *held* is the ledger's word for a sale's money before its release.
import {
  buyerPriceCents,
  centsToEuro,
  HOUSE_SELLER_ID,
  PAUSE_AFTER_FAILURES,
  sellerDeliveryMessages,
  sellerMessages as m,
  type GameOffer,
  type KeyUploadAnswer,
  type Offer,
  type OfferDelivery,
  type OfferStatus,
} from '@keystore/contract';
import { sql } from 'drizzle-orm';
import { inList, queryRows, type Db } from '../../db/client.ts';
import { Conflict, Forbidden, NotFound } from '../../platform/errors.ts';
import type { GameStock } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { gameFacts, type GameStockRows } from '../catalog/ports.ts';
import type { VoidedKey } from '../library/ports.ts';
import type { SellerRow } from '../sellers/ports.ts';
import { SellerDelivery, type FailedReservation, type ProvideOutcome, type Refusal, type SellerDeliveryDeps } from './declared.ts';
import { houseOffer } from './house.ts';
import { Market } from './market.ts';
import { sealKeys } from './seal.ts';
import { putBackTaken, sellShelfKeys, ShelvedGames, shelveKeys, takeFromShelf, type ShelfKey } from './shelf.ts';
import { takeFromOffers, takeLinesAgain, rerouteLine, type LineOnOffer, type OrderRequestLine, type PlacedLine, type Reroute } from './placement.ts';
import {
  deliverLineReservations,
  endLineReservations,
  failedOffersOfLine,
  offerOfLine,
  openReservationsOfLines,
  reserveDeclared,
  type ReservationRow,
} from './reservations.ts';
import {
  bestOfferFirst,
  deleteAvailableKey,
  gamesOfSellers,
  insertKeys,
  insertOffer,
  keysOfOffer,
  marketOffers,
  maskedSoldKey,
  offerOfSeller,
  offersOfSeller,
  offersToReprice,
  releaseLineKeys,
  restockKeys,
  sellLineKeys,
  sellProvidedKey,
  setOfferPrices,
  soldKeysOfLines,
  takeReplacementKey,
  updateOffer,
  type OfferView,
} from './store.ts';

/** What declared stock needs (declared.ts), and the catalogue's door to the games rows' stock. */
export interface OffersDeps extends Omit<SellerDeliveryDeps, 'market'> {
  gameStock: GameStockRows;
}

/** A line whose keys are ended with an order: the house's on the games row, a seller's on its keys or reservation. */
export type EndingLine = Pick<LineOnOffer, 'id' | 'gameId' | 'quantity' | 'sellerId'>;

export class OffersService {
  /** Declared stock: the webhook, reserve, provide, cancel and the breaker. */
  readonly declared: SellerDelivery;
  private readonly market: Market;
  private readonly deps: OffersDeps;
  /** The games whose keys may be on the house's shelf (issue 29): listened for from start to stop. */
  readonly shelved: ShelvedGames;

  constructor(deps: OffersDeps) {
    this.deps = deps;
    this.market = new Market(deps.gameStock);
    this.shelved = new ShelvedGames(deps.database);
    this.declared = new SellerDelivery({ ...deps, market: this.market });
    // A seller's status, commission or score changed: its offers are repriced and the market follows, in that transaction.
    deps.events.on('sellers-changed', async ({ tx, sellerIds, repriced, standing, moved }) => {
      moved.push(...(await this.sellersChanged(tx, sellerIds, { repriced, standing })));
    });
  }

  private get db() {
    return this.deps.database.db;
  }

  // --- For orders -------------------------------------------------------------------------------

  /**
   * Takes every request's keys for an order across the offers of each game, best first, split over
   * several when one has too few; answers the order's lines (one per offer used) and the stock the games
   * show after. Throws NotFound for a game not in the store, Conflict for one that cannot be covered,
   * and a 409 with `prices` when the offers now cost more than the cart showed.
   */
  take(tx: Db, orderId: string, requests: OrderRequestLine[]): Promise<{ lines: PlacedLine[]; stock: GameStock[] }> {
    return takeFromOffers(this.market, tx, orderId, requests);
  }

  /** Takes again the keys of an order that lapsed before its money came, each line from its own offer (or Conflict). */
  takeAgain(tx: Db, orderId: string, lines: LineOnOffer[]): Promise<GameStock[]> {
    return takeLinesAgain(this.market, tx, orderId, lines);
  }

  /** Asks the declared sellers of an order's new reservations to hold their keys; answers those refused, still open, with why. */
  confirmReservations(orderId: string): Promise<Refusal[]> {
    return this.declared.confirm(orderId);
  }

  /**
   * Ends the reservations of lines whose keys will not be sold (the order lapsed, was cancelled or
   * refunded): the house's go back to the games row, a seller's keys go back on sale, a declared
   * seller's stock goes back and it is owed a cancel. Answers each game's shown stock after.
   */
  async release(tx: Db, lines: EndingLine[], ending: 'cancelled' | 'expired' = 'cancelled'): Promise<GameStock[]> {
    // Every game first, in id order (placement's order), before the house's rows or any offer is written.
    await this.market.lock(tx, lines.map((line) => line.gameId));
    const house = lines.filter((line) => line.sellerId === HOUSE_SELLER_ID);
    const sellers = lines.filter((line) => line.sellerId !== HOUSE_SELLER_ID);
    await this.deps.gameStock.endHouseTakes(tx, quantitiesByGame(house), false);
    await putBackTaken(tx, house.map((line) => line.id));
    const lineIds = sellers.map((line) => line.id);
    await endLineReservations(tx, lineIds, ending, ending === 'expired' ? 'the order was not paid in time' : 'the order was cancelled or refunded');
    await releaseLineKeys(tx, lineIds);
    return this.market.refresh(tx, lines.filter((line) => line.quantity > 0 || line.sellerId !== HOUSE_SELLER_ID).map((line) => line.gameId));
  }

  /**
   * The house's keys of these lines were bought from the supplier: they leave our takes and the
   * supplier's quantity together (until the next sync says what it has left). A refund of an
   * undelivered order keeps what was bought so; its sellers' lines are released, not delivered.
   */
  async keepBoughtHouseKeys(tx: Db, lines: EndingLine[]): Promise<void> {
    await this.deps.gameStock.endHouseTakes(tx, quantitiesByGame(lines.filter((line) => line.sellerId === HOUSE_SELLER_ID)), true);
  }

  /**
   * Delivered lines are settled: the house's keys were bought (keepBoughtHouseKeys) or came from its
   * shelf (`fromShelf`, keys per line: their takes of the supplier's stock end unbought), a declared
   * seller's reservations are delivered.
   */
  async settleDelivered(tx: Db, lines: EndingLine[], fromShelf: ReadonlyMap<string, number> = new Map()): Promise<void> {
    if (fromShelf.size > 0) {
      const shelved = lines.filter((line) => line.sellerId === HOUSE_SELLER_ID && fromShelf.has(line.id));
      await this.deps.gameStock.endHouseTakes(tx, quantitiesByGame(shelved.map((line) => ({ ...line, quantity: fromShelf.get(line.id)! }))), false);
      lines = lines.map((line) => ({ ...line, quantity: line.quantity - (fromShelf.get(line.id) ?? 0) }));
    }
    await this.keepBoughtHouseKeys(tx, lines);
    await deliverLineReservations(tx, lines.filter((line) => line.sellerId !== HOUSE_SELLER_ID).map((line) => line.id));
  }

  /**
   * The house's shelf keys for house lines being delivered (issue 29): those taken for them before and,
   * when `takeMore` (before the supplier is asked), as many more as each line wants. Sealed for their row.
   * `firstRun`: the paying request's run, before which nothing can have been taken.
   */
  async takeFromShelf(lines: Array<Pick<LineOnOffer, 'id' | 'gameId' | 'quantity'>>, takeMore: boolean, firstRun: boolean): Promise<ShelfKey[]> {
    // A delivery's first run (nothing taken before) asks only for games the shelf may hold; a later one
    // reads back what its lines took, and takes more only before its supplier order exists.
    const asked = firstRun ? lines.filter((line) => this.shelved.mayHold(line.gameId)) : lines;
    if (asked.length === 0) return [];
    const mark = this.shelved.mark;
    const keys = await takeFromShelf(this.db, asked, takeMore);
    if (takeMore) {
      for (const line of asked) if (keys.filter((key) => key.lineId === line.id).length < line.quantity) this.shelved.bare(line.gameId, mark);
    }
    return keys;
  }

  /** The shelf keys taken for these lines are in their buyer's library now: sold (a refund brings them back through returnUnrevealed). */
  shelfKeysStored(tx: Db, lineIds: string[]): Promise<void> {
    return sellShelfKeys(tx, lineIds);
  }

  /** The keys reserved by these seller lines, marked sold: answers them with their line, sealed, and their offer's delivery. */
  handOver(tx: Db, lineIds: string[]): Promise<Array<{ id: string; lineId: string; serialEncrypted: string; delivery: OfferDelivery }>> {
    return sellLineKeys(tx, lineIds);
  }

  /**
   * Moves a paid line whose seller failed to the next offer that can take its whole quantity at no more
   * than `maxUnitCents` a key, never back to an offer that failed it nor to one `takenByOrder` (another
   * line of its order holds it). The caller rewrites the line to the new offer in the same transaction.
   */
  async reroute(tx: Db, line: LineOnOffer, maxUnitCents: number, takenByOrder: string[]): Promise<Reroute> {
    const skip = new Set([...(await failedOffersOfLine(tx, line.id)), line.offerId, ...takenByOrder]);
    return rerouteLine(this.market, tx, line, maxUnitCents, skip);
  }

  /** The declared reservations of these lines still holding a seller's keys. */
  openReservations(lineIds: string[]): Promise<ReservationRow[]> {
    return openReservationsOfLines(this.db, lineIds);
  }

  /** Asks a declared seller for a reservation's keys (3 attempts). */
  provide(reservationId: string): Promise<ProvideOutcome> {
    return this.declared.provide(reservationId);
  }

  /**
   * A declared seller failed a reservation, in the caller's transaction, which moves its line on or owes
   * its refund (decision 031): it fails (a cancel is owed), the fee is posted, the breaker counts.
   * Answers what to announce after the commit, or undefined when it was settled already.
   */
  failReservation(tx: Db, reservation: ReservationRow, reason: string, feeCents: number): Promise<FailedReservation | undefined> {
    return this.declared.failWithin(tx, reservation, reason, feeCents);
  }

  /**
   * The keys of an order's lines voided with a refund (`voided`): a house key nobody revealed goes on
   * the house's shelf, a seller's back on sale, and a key someone may have seen is never sold again.
   * Answers the games shown anew.
   */
  async returnUnrevealed(tx: Db, orderId: string, lines: EndingLine[], voided: VoidedKey[]): Promise<GameStock[]> {
    return (await this.takeBackKeys(tx, orderId, lines, voided)).stock;
  }

  /**
   * A disputed order's keys that came back unrevealed (issue 29), as a refund's do (returnUnrevealed);
   * each seller is then told which of its keys came back (`tell`, after the commit), by a notification
   * in its bell.
   */
  async returnDisputed(tx: Db, orderId: string, lines: EndingLine[], voided: VoidedKey[]): Promise<{ stock: GameStock[]; tell: () => Promise<void> }> {
    const { stock, sellerKeys } = await this.takeBackKeys(tx, orderId, lines, voided);
    if (sellerKeys.length === 0) return { stock, tell: async () => {} };
    const told = await queryRows<{ seller_id: string; masked: string; title: string }>(
      tx,
      sql`select k.seller_id, k.masked, g.title from seller_keys k join ${gameFacts} g on g.id = k.game_id where k.id in ${inList(sellerKeys)}`,
    );
    const tell = async () => {
      for (const sellerId of new Set(told.map((key) => key.seller_id))) {
        try {
          const seller = await this.deps.sellers.find(sellerId);
          if (!seller?.userId) continue;
          const keys = told.filter((key) => key.seller_id === sellerId).map((key) => `${key.title} (${key.masked})`);
          const text = `A buyer's payment was disputed, so ${keys.length === 1 ? 'this key, never revealed, is' : 'these keys, never revealed, are'} back on sale in your offers: ${keys.join(', ')}. The sale is reversed in your ledger.`;
          await this.deps.notifications.publish({ userId: seller.userId, kind: 'seller-alert', title: 'Keys back after a dispute', text, link: '/seller/sales' });
        } catch (error) {
          this.deps.log.error({ err: error, sellerId }, 'could not tell a seller its keys came back after a dispute');
        }
      }
    };
    return { stock, tell };
  }

  /** Voided keys back where they came from: the house's on its shelf (or burnt), a seller's unrevealed ones on sale. */
  private async takeBackKeys(tx: Db, orderId: string, lines: EndingLine[], voided: VoidedKey[]): Promise<{ stock: GameStock[]; sellerKeys: string[] }> {
    const houseLines = new Set(lines.filter((line) => line.sellerId === HOUSE_SELLER_ID).map((line) => line.id));
    await shelveKeys(tx, this.deps.library, orderId, voided.filter((key) => houseLines.has(key.lineId)));
    const sellerLines = lines.filter((line) => line.sellerId !== HOUSE_SELLER_ID).map((line) => line.id);
    if (sellerLines.length === 0) return { stock: [], sellerKeys: [] };
    const unseen = new Set(voided.filter((key) => !key.revealed).map((key) => `${key.lineId} ${key.serialHash}`));
    const back = (await soldKeysOfLines(tx, sellerLines)).filter((key) => unseen.has(`${key.line_id} ${key.library_hash}`));
    if (back.length === 0) return { stock: [], sellerKeys: [] };
    await this.market.lock(tx, back.map((key) => key.game_id));
    const ids = back.map((key) => key.id);
    return { stock: await this.market.refresh(tx, await restockKeys(tx, ids)), sellerKeys: ids };
  }

  /** An order's reservations with their moves and calls, for the back office's timeline. */
  timeline(orderId: string) {
    return this.declared.timeline(orderId);
  }

  // --- For claims -------------------------------------------------------------------------------

  /** The seller whose offer a line's keys came from (the house for its own offers). */
  async sellerOfLine(lineId: string): Promise<string> {
    return (await offerOfLine(this.db, lineId))?.sellerId ?? HOUSE_SELLER_ID;
  }

  /** A seller's key sold for a line, masked as its seller saw it (by the library's hash of its serial); undefined for the house's. */
  maskedKey(lineId: string, libraryHash: string): Promise<string | undefined> {
    return maskedSoldKey(this.db, lineId, libraryHash);
  }

  /**
   * A new key for a claimed line: one of its offer's uploaded keys, or one its declared seller hands over
   * for a new reservation. `use` stores it in the caller's place within the transaction that sells it;
   * when it throws, nothing is sold and a declared seller's key goes back to it (its reservation ends).
   * Answers false when the offer has no key to give.
   */
  async replaceKey(claim: { id: string; orderId: string; lineId: string; gameId: string }, use: (tx: Db, serial: string) => Promise<void>): Promise<boolean> {
    const offer = await offerOfLine(this.db, claim.lineId);
    if (!offer || offer.sellerId === HOUSE_SELLER_ID) return false;
    if (offer.delivery === 'declared') {
      const reservationId = await this.db.transaction(async (tx) => {
        await this.market.lock(tx, [claim.gameId]);
        return reserveDeclared(tx, offer.offerId, claim.orderId, claim.lineId, 1);
      });
      if (!reservationId) return false;
      const outcome = await this.declared.provide(reservationId);
      if (!outcome.ok) {
        const [reservation] = await this.declared.reservationsById([reservationId]);
        if (reservation) await this.declared.failed(reservation, `replacement for claim ${claim.id}: ${outcome.reason}`, 0);
        return false;
      }
    }
    const games = await this.db
      .transaction(async (tx) => {
        // The game's row first, as placement takes it before an offer's keys.
        await this.market.lock(tx, [claim.gameId]);
        const key = offer.delivery === 'declared' ? await sellProvidedKey(tx, offer.offerId, claim.lineId) : await takeReplacementKey(tx, offer.offerId, claim.orderId, claim.lineId);
        if (!key) return undefined;
        await use(tx, this.deps.library.unseal(key.serialEncrypted, key.id));
        await deliverLineReservations(tx, [claim.lineId]);
        return this.market.refresh(tx, [claim.gameId]);
      })
      .catch(async (error: unknown) => {
        if (offer.delivery === 'declared') await this.endUnusedReplacement(claim);
        throw error;
      });
    if (!games) {
      if (offer.delivery === 'declared') await this.endUnusedReplacement(claim);
      return false;
    }
    this.moved(games);
    return true;
  }

  /** A key a declared seller handed over for nothing goes back to it: its reservation ends (a cancel is owed). */
  private async endUnusedReplacement(claim: { id: string; lineId: string; gameId: string }): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.market.lock(tx, [claim.gameId]);
      await endLineReservations(tx, [claim.lineId], 'cancelled', `the replacement for claim ${claim.id} was not used`);
    });
  }

  // --- For sellers ------------------------------------------------------------------------------

  async offers(seller: SellerRow): Promise<Offer[]> {
    return (await offersOfSeller(this.db, seller.id)).map(toOffer);
  }

  private async ownOffer(seller: SellerRow, id: string, db: Db = this.db): Promise<OfferView> {
    const offer = await offerOfSeller(db, seller.id, id);
    if (!offer) throw new NotFound(m.offerNotFound);
    return offer;
  }

  async createOffer(
    seller: SellerRow,
    request: { gameId: string; netPrice: number; status: OfferStatus; delivery?: OfferDelivery | undefined; declaredStock?: number | undefined },
  ): Promise<Offer> {
    if (seller.id === HOUSE_SELLER_ID) throw new Forbidden(m.notSeller);
    if (request.delivery === 'declared' && !seller.webhookUrl) throw new Conflict(sellerDeliveryMessages.declaredNeedsWebhook);
    if (!(await this.deps.gameStock.inStore(this.db, request.gameId))) throw new NotFound(m.gameNotFound);
    const netPriceCents = Math.round(request.netPrice * 100);
    const priceCents = buyerPriceCents(netPriceCents, await this.deps.sellers.commissionOf(seller));
    const id = newId();
    const games = await this.db.transaction(async (tx) => {
      // The game's row first, as placement takes it before its offers'.
      await this.market.lock(tx, [request.gameId]);
      const delivery = { delivery: request.delivery ?? 'uploaded', declaredStock: request.declaredStock ?? 0 };
      if (!(await insertOffer(tx, { id, sellerId: seller.id, gameId: request.gameId, netPriceCents, priceCents, status: request.status, ...delivery }))) throw new Conflict(m.offerExists);
      return this.market.refresh(tx, [request.gameId]);
    });
    this.moved(games);
    return toOffer(await this.ownOffer(seller, id));
  }

  async patchOffer(
    seller: SellerRow,
    id: string,
    patch: { netPrice?: number | undefined; status?: OfferStatus | undefined; delivery?: OfferDelivery | undefined; declaredStock?: number | undefined },
  ): Promise<Offer> {
    const offer = await this.ownOffer(seller, id);
    const set: Parameters<typeof updateOffer>[3] = {};
    // Declared stock is handed over through the seller's webhook, so it needs one (issue 24).
    if (patch.delivery === 'declared' && !seller.webhookUrl) throw new Conflict(sellerDeliveryMessages.declaredNeedsWebhook);
    if (patch.delivery !== undefined) set.delivery = patch.delivery;
    if (patch.declaredStock !== undefined) set.declaredStock = patch.declaredStock;
    // A seller resuming an offer the breaker paused starts over with a clean record.
    if (patch.status === 'active' && offer.status === 'paused') Object.assign(set, { failureStreak: 0, breakerTrips: 0, hiddenUntil: null });
    if (patch.netPrice !== undefined) {
      set.netPriceCents = Math.round(patch.netPrice * 100);
      set.priceCents = buyerPriceCents(set.netPriceCents, await this.deps.sellers.commissionOf(seller));
    }
    if (patch.status !== undefined) set.status = patch.status;
    if (Object.keys(set).length > 0) {
      const games = await this.db.transaction(async (tx) => {
        // The game's row first, as placement takes it before the offer's.
        await this.market.lock(tx, [offer.gameId]);
        await updateOffer(tx, seller.id, id, set);
        return this.market.refresh(tx, [offer.gameId]);
      });
      this.moved(games);
    }
    return toOffer(await this.ownOffer(seller, id));
  }

  /**
   * Stores a list of keys for an offer: each is trimmed; one that is not printable or not 5 to 200
   * characters is counted invalid; one whose serial (without spaces, dashes and case) is already in any
   * seller's stock or was ever sold for the game is counted a duplicate. Neither stops the others.
   */
  async uploadKeys(seller: SellerRow, offerId: string, keys: string[]): Promise<KeyUploadAnswer> {
    const offer = await this.ownOffer(seller, offerId);
    const { rows, duplicates, invalid } = await sealKeys(this.deps.library, offer, keys);
    const { added, games } = await this.db.transaction(async (tx) => {
      await this.market.lock(tx, [offer.gameId]);
      const stored = await insertKeys(tx, rows);
      return { added: stored, games: stored > 0 ? await this.market.refresh(tx, [offer.gameId]) : [] };
    });
    this.moved(games);
    // A key another seller (or this list twice over) already holds was skipped by the unique index.
    return { added, duplicates: duplicates + (rows.length - added), invalid };
  }

  async keys(seller: SellerRow, offerId: string) {
    const offer = await this.ownOffer(seller, offerId);
    return (await keysOfOffer(this.db, offer.id)).map((key) => ({ _id: key.id, masked: key.masked, state: key.state }));
  }

  async deleteKey(seller: SellerRow, offerId: string, keyId: string): Promise<void> {
    const offer = await this.ownOffer(seller, offerId);
    const games = await this.db.transaction(async (tx) => {
      await this.market.lock(tx, [offer.gameId]);
      const outcome = await deleteAvailableKey(tx, offer.id, keyId);
      if (outcome === 'missing') throw new NotFound(m.keyNotFound);
      if (outcome === 'not-available') throw new Conflict(m.keyNotAvailable);
      return this.market.refresh(tx, [offer.gameId]);
    });
    this.moved(games);
  }

  // --- For shoppers -----------------------------------------------------------------------------

  /** A game's offers that can be bought now, the house's included, best first (404 for a game not in the store). */
  async offersOfGame(gameId: string): Promise<GameOffer[]> {
    const [house, sellers] = await Promise.all([houseOffer(this.deps.gameStock, this.db, gameId), marketOffers(this.db, gameId)]);
    if (house === 'missing') throw new NotFound(m.gameNotFound);
    const all = [...sellers, ...(house ? [house] : [])];
    all.sort(bestOfferFirst);
    return all.map((offer) => ({ offerId: offer.offerId, seller: { name: offer.sellerName, score: offer.score }, price: centsToEuro(offer.priceCents), stock: offer.stock }));
  }

  // --- When sellers change ----------------------------------------------------------------------

  /**
   * Sellers changed: a new commission reprices their offers (only the games whose price moved are
   * rewritten); a new standing (status, score floor) rewrites the market of every game they offer.
   * Answers the games moved.
   */
  private async sellersChanged(tx: Db, sellerIds: string[], what: { repriced: boolean; standing: boolean }): Promise<GameStock[]> {
    const games = new Set<string>();
    let prices: Array<{ id: string; priceCents: number }> = [];
    if (what.repriced) {
      const sellers = (await Promise.all(sellerIds.map((id) => this.deps.sellers.find(id, tx)))).filter((seller): seller is SellerRow => seller !== undefined);
      const commissions = new Map(await Promise.all(sellers.map(async (seller) => [seller.id, await this.deps.sellers.commissionOf(seller, tx)] as const)));
      const changed = (await offersToReprice(tx, sellers.map((seller) => seller.id)))
        .map((offer) => ({ ...offer, next: buyerPriceCents(offer.netPriceCents, commissions.get(offer.sellerId)!) }))
        .filter((offer) => offer.next !== offer.priceCents);
      for (const offer of changed) games.add(offer.gameId);
      prices = changed.map((offer) => ({ id: offer.id, priceCents: offer.next }));
    }
    if (what.standing) for (const game of await gamesOfSellers(tx, sellerIds)) games.add(game.gameId);
    // The games' rows first, as placement takes them before their offers'.
    await this.market.lock(tx, games);
    await setOfferPrices(tx, prices);
    return this.market.refresh(tx, games);
  }

  /** Tells this instance's index and the other instances that these games' offers changed. */
  private moved(games: GameStock[]): void {
    if (games.length > 0) this.deps.events.emit('stock-moved', { games });
  }
}

function quantitiesByGame(lines: Array<{ gameId: string; quantity: number }>): Map<string, number> {
  const totals = new Map<string, number>();
  for (const line of lines) if (line.quantity > 0) totals.set(line.gameId, (totals.get(line.gameId) ?? 0) + line.quantity);
  return totals;
}

function toOffer(view: OfferView): Offer {
  return {
    _id: view.id,
    gameId: view.gameId,
    title: view.title,
    netPrice: centsToEuro(view.netPriceCents),
    price: centsToEuro(view.priceCents),
    stock: view.stock,
    status: view.status,
    sold: view.sold,
    delivery: view.delivery,
    declaredStock: view.declaredStock,
    hiddenUntil: view.hiddenUntil ? new Date(view.hiddenUntil).toISOString() : null,
    pausedAfterFailures: view.status === 'paused' && view.failureStreak >= PAUSE_AFTER_FAILURES,
  };
}
