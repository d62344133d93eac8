// The marketplace's sellers (issue 23): applying, the owner's approval, API keys, offers priced by what
// the seller wants to receive, uploaded keys with the duplicate rule, and what a seller may read of its
// sales and money. The market columns of the catalogue follow every change here in the same
// transaction (store.ts refreshMarket), and the lists show it at once on every instance ('stock-moved').
import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  API_KEYS_MAX,
  buyerPriceCents,
  centsToEuro,
  commissionCents,
  DEFAULT_COMMISSION_FIXED_CENTS,
  DEFAULT_COMMISSION_PERCENT,
  DEFAULT_HOLD_DAYS,
  DEFAULT_SCORE_FLOOR,
  PAUSE_AFTER_FAILURES,
  SCORE_PRIOR,
  HOUSE_SELLER_ID,
  keyIsValid,
  MASKED_KEY_VISIBLE,
  normalizedSerial,
  ORDER_CURRENCY,
  SELLER_PAGE_SIZE,
  sellerDeliveryMessages,
  sellerMessages as m,
  type AdminSeller,
  type ApiKey,
  type Commission,
  type GameOffer,
  type KeyUploadAnswer,
  type Offer,
  type OfferDelivery,
  type OfferStatus,
  type PricePreview,
  type Seller,
  type SellerKey,
  type SellerSale,
  type SellerStatus,
} from '@keystore/contract';
import type { Database, Db } from '../../db/client.ts';
import { Conflict, Forbidden, HttpError, NotFound } from '../../platform/errors.ts';
import type { GameStock, StoreEventBus } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { storeSettings } from '../catalog/schema.ts';
import type { Ledger } from '../ledger/ports.ts';
import type { LibraryService } from '../library/ports.ts';
import {
  apiKeysOf,
  deleteApiKey,
  deleteAvailableKey,
  findSeller,
  gameExists,
  gamesOfSellers,
  insertApiKey,
  insertKeys,
  insertOffer,
  insertSeller,
  keysOfOffer,
  bestOfferFirst,
  marketOffers,
  offerOfSeller,
  offersOfSeller,
  offersToReprice,
  lockGames,
  refreshMarket,
  salesOf,
  sellerCounts,
  sellerNameTaken,
  sellerOfApiKey,
  sellerOfUser,
  sellerPage,
  setOfferPrices,
  soldHashes,
  updateOffer,
  updateSeller,
  type OfferView,
  type SellerRow,
} from './store.ts';
import { houseOffer } from './house.ts';
import { refreshScores, sellerScores } from './score.ts';
import { sellerKeys, sellers as sellersTable } from './schema.ts';

const COMMISSION_SETTING = 'sellerCommission';
const SCORE_FLOOR_SETTING = 'sellerScoreFloor';

export interface SellersDeps {
  database: Database;
  library: LibraryService;
  ledger: Ledger;
  events: StoreEventBus;
}

export class SellersService {
  private readonly deps: SellersDeps;

  constructor(deps: SellersDeps) {
    this.deps = deps;
  }

  private get db() {
    return this.deps.database.db;
  }

  // --- Sellers -----------------------------------------------------------------------------------

  /** A verified customer applies; one seller per user (409), a name no other seller has (409). */
  async apply(userId: string, verified: boolean, application: { name: string; contactEmail: string; country: string }): Promise<Seller> {
    if (!verified) throw new Forbidden(m.verifyFirst);
    if (await sellerOfUser(this.db, userId)) throw new Conflict(m.alreadySeller);
    if (await sellerNameTaken(this.db, application.name)) throw new Conflict(m.nameTaken);
    const row = await insertSeller(this.db, { id: newId(), userId, ...application, status: 'pending', holdDays: DEFAULT_HOLD_DAYS });
    // A second application racing this one, or a name taken meanwhile: the unique indexes refused it.
    if (!row) throw new Conflict((await sellerOfUser(this.db, userId)) ? m.alreadySeller : m.nameTaken);
    return this.view(row);
  }

  /** The signed-in user's seller (404 when there is none). */
  async ofUser(userId: string): Promise<SellerRow> {
    const seller = await sellerOfUser(this.db, userId);
    if (!seller) throw new NotFound(m.notSeller);
    return seller;
  }

  find(id: string): Promise<SellerRow | undefined> {
    return findSeller(this.db, id);
  }

  /** The seller an API key belongs to (401 for an unknown key, 403 for a suspended seller). */
  async ofApiKey(key: string): Promise<SellerRow> {
    const seller = await sellerOfApiKey(this.db, hashApiKey(key));
    if (!seller) throw new HttpError(401, m.apiKeyInvalid);
    if (seller.status === 'suspended') throw new Forbidden(m.sellerSuspended);
    return seller;
  }

  async view(row: SellerRow): Promise<Seller> {
    return (await this.views([row]))[0]!;
  }

  /** Sellers as answered, their balances, offers and keys read once for all of them (a back-office page is one read each, not one per seller). */
  private async views(rows: SellerRow[]): Promise<Seller[]> {
    const ids = rows.map((row) => row.id);
    const [balances, counts, fallback, scores] = await Promise.all([this.deps.ledger.balances(ids), sellerCounts(this.db, ids), this.defaultCommission(), sellerScores(this.db, ids)]);
    return rows.map((row) => {
      const balance = balances.get(row.id)!;
      const count = counts.get(row.id)!;
      const commission = commissionWithDefault(row, fallback);
      return {
        _id: row.id,
        name: row.name,
        contactEmail: row.contactEmail,
        country: row.country,
        status: row.status,
        commission: { percent: commission.percent, fixed: centsToEuro(commission.fixedCents) },
        holdDays: row.holdDays,
        // The house's keys come from the supplier: it has no score of its own.
        score: scores.get(row.id) ?? { value: SCORE_PRIOR, onFirstTry: 1, p90ProvideSeconds: 0, claimsPer100: 0, refunds: 0, deliveries: 0 },
        balance: { held: centsToEuro(balance.held), available: centsToEuro(balance.available), currency: ORDER_CURRENCY },
        offers: count.offers,
        keysInStock: count.keys,
        createdAt: row.createdAt.toISOString(),
      };
    });
  }

  // --- Commission --------------------------------------------------------------------------------

  /** The store's default commission (back office), 10 % and €0 until the owner sets one. */
  async defaultCommission(db: Db = this.db): Promise<Commission> {
    const [row] = await db.select({ value: storeSettings.value }).from(storeSettings).where(eq(storeSettings.key, COMMISSION_SETTING));
    const value = row?.value as Partial<Commission> | undefined;
    return { percent: value?.percent ?? DEFAULT_COMMISSION_PERCENT, fixedCents: value?.fixedCents ?? DEFAULT_COMMISSION_FIXED_CENTS };
  }

  async commissionOf(seller: SellerRow, db: Db = this.db): Promise<Commission> {
    return commissionWithDefault(seller, await this.defaultCommission(db));
  }

  /** The owner sets the store's default commission: every offer of a seller without its own is repriced. */
  async setDefaultCommission(change: { percent?: number | undefined; fixedCents?: number | undefined }): Promise<Commission> {
    const moved = await this.db.transaction(async (tx) => {
      const before = await this.defaultCommission(tx);
      const next = { percent: change.percent ?? before.percent, fixedCents: change.fixedCents ?? before.fixedCents };
      await tx
        .insert(storeSettings)
        .values({ key: COMMISSION_SETTING, value: next })
        .onConflictDoUpdate({ target: storeSettings.key, set: { value: next, updatedAt: new Date() } });
      const following = (await tx.select().from(sellersTable).where(eq(sellersTable.status, 'active'))).filter(
        (seller) => seller.id !== HOUSE_SELLER_ID && (seller.commissionBasisPoints === null || seller.commissionFixedCents === null),
      );
      const games = await this.reprice(tx, following);
      return { next, games };
    });
    this.moved(moved.games);
    return moved.next;
  }

  /** Rewrites the buyer's price of these sellers' offers by their commission now; answers the games shown anew. */
  private async reprice(tx: Db, sellers: SellerRow[]): Promise<GameStock[]> {
    if (sellers.length === 0) return [];
    const commissions = new Map(await Promise.all(sellers.map(async (seller) => [seller.id, await this.commissionOf(seller, tx)] as const)));
    const offers = await offersToReprice(tx, sellers.map((seller) => seller.id));
    const changed = offers
      .map((offer) => ({ ...offer, next: buyerPriceCents(offer.netPriceCents, commissions.get(offer.sellerId)!) }))
      .filter((offer) => offer.next !== offer.priceCents);
    // The games' rows first, as placement takes them before their offers' (lockGames).
    await lockGames(tx, changed.map((offer) => offer.gameId));
    await setOfferPrices(tx, changed.map((offer) => ({ id: offer.id, priceCents: offer.next })));
    return refreshMarket(tx, changed.map((offer) => offer.gameId));
  }

  // --- Back office -------------------------------------------------------------------------------

  async adminPage(filter: { status?: SellerStatus | undefined; q?: string | undefined }, page: number, pageSize: number) {
    const { rows, total } = await sellerPage(this.db, filter, page, pageSize);
    return { items: await this.adminViews(rows), total, page, pageSize };
  }

  async adminViews(rows: SellerRow[]): Promise<AdminSeller[]> {
    return (await this.views(rows)).map((view, n) => ({
      ...view,
      userId: rows[n]!.userId,
      customCommission: rows[n]!.commissionBasisPoints !== null && rows[n]!.commissionFixedCents !== null,
      house: rows[n]!.id === HOUSE_SELLER_ID,
    }));
  }

  /**
   * The owner approves, suspends, or sets a seller's commission or hold. A status or commission change
   * shows in the store at once, on every instance: the seller's offers enter or leave the market.
   */
  async adminPatch(
    id: string,
    patch: { status?: 'active' | 'suspended' | undefined; commissionPercent?: number | null | undefined; commissionFixed?: number | null | undefined; holdDays?: number | undefined },
  ): Promise<{ before: AdminSeller; after: AdminSeller }> {
    const found = await findSeller(this.db, id);
    if (!found) throw new NotFound(m.sellerNotFound);
    const before = (await this.adminViews([found]))[0]!;
    const result = await this.db.transaction(async (tx) => {
      const set: Parameters<typeof updateSeller>[2] = {};
      if (patch.status !== undefined && found.id !== HOUSE_SELLER_ID) set.status = patch.status;
      if (patch.holdDays !== undefined) set.holdDays = patch.holdDays;
      if (patch.commissionPercent !== undefined) set.commissionBasisPoints = patch.commissionPercent === null ? null : Math.round(patch.commissionPercent * 100);
      if (patch.commissionFixed !== undefined) set.commissionFixedCents = patch.commissionFixed === null ? null : Math.round(patch.commissionFixed * 100);
      // One of the two set alone: the other is the store's default of now, so the seller's rule is whole.
      if ((set.commissionBasisPoints ?? null) !== null && found.commissionFixedCents === null && set.commissionFixedCents === undefined) {
        set.commissionFixedCents = (await this.defaultCommission(tx)).fixedCents;
      }
      if ((set.commissionFixedCents ?? null) !== null && found.commissionBasisPoints === null && set.commissionBasisPoints === undefined) {
        set.commissionBasisPoints = Math.round((await this.defaultCommission(tx)).percent * 100);
      }
      const row = (await updateSeller(tx, id, set))!;
      const games = await this.reprice(tx, [row]);
      const shown = set.status !== undefined ? await refreshMarket(tx, (await gamesOfSellers(tx, [id])).map((game) => game.gameId)) : [];
      return { row, games: [...games, ...shown] };
    });
    this.moved(result.games);
    return { before, after: (await this.adminViews([result.row]))[0]! };
  }

  // --- API keys ----------------------------------------------------------------------------------

  async createApiKey(seller: SellerRow, name: string): Promise<{ _id: string; name: string; key: string }> {
    const existing = await apiKeysOf(this.db, seller.id);
    if (existing.length >= API_KEYS_MAX) throw new Conflict(m.tooManyApiKeys);
    const key = `ks_${randomBytes(24).toString('base64url')}`;
    const id = newId();
    await insertApiKey(this.db, { id, sellerId: seller.id, name, keyHash: hashApiKey(key) });
    return { _id: id, name, key };
  }

  async apiKeys(seller: SellerRow): Promise<ApiKey[]> {
    return (await apiKeysOf(this.db, seller.id)).map((key) => ({
      _id: key.id,
      name: key.name,
      createdAt: key.createdAt.toISOString(),
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    }));
  }

  async deleteApiKey(seller: SellerRow, id: string): Promise<void> {
    if (!(await deleteApiKey(this.db, seller.id, id))) throw new NotFound(m.apiKeyNotFound);
  }

  // --- Offers ------------------------------------------------------------------------------------

  async pricePreview(seller: SellerRow, netCents: number): Promise<PricePreview> {
    const commission = await this.commissionOf(seller);
    return { netPrice: centsToEuro(netCents), commission: centsToEuro(commissionCents(netCents, commission)), price: centsToEuro(buyerPriceCents(netCents, commission)) };
  }

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
    if (!(await gameExists(this.db, request.gameId))) throw new NotFound(m.gameNotFound);
    const netPriceCents = Math.round(request.netPrice * 100);
    const priceCents = buyerPriceCents(netPriceCents, await this.commissionOf(seller));
    const id = newId();
    const games = await this.db.transaction(async (tx) => {
      const delivery = { delivery: request.delivery ?? 'uploaded', declaredStock: request.declaredStock ?? 0 };
      if (!(await insertOffer(tx, { id, sellerId: seller.id, gameId: request.gameId, netPriceCents, priceCents, status: request.status, ...delivery }))) throw new Conflict(m.offerExists);
      return refreshMarket(tx, [request.gameId]);
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
      set.priceCents = buyerPriceCents(set.netPriceCents, await this.commissionOf(seller));
    }
    if (patch.status !== undefined) set.status = patch.status;
    if (Object.keys(set).length > 0) {
      const games = await this.db.transaction(async (tx) => {
        // The game's row first, as placement takes it before the offer's (lockGames).
        await lockGames(tx, [offer.gameId]);
        await updateOffer(tx, seller.id, id, set);
        return refreshMarket(tx, [offer.gameId]);
      });
      this.moved(games);
    }
    return toOffer(await this.ownOffer(seller, id));
  }

  // --- Keys --------------------------------------------------------------------------------------

  /**
   * Stores a list of keys for an offer: each is trimmed; one that is not printable or not 5 to 200
   * characters is counted invalid; one whose serial (without spaces, dashes and case) is already in any
   * seller's stock or was ever sold for the game is counted a duplicate. Neither stops the others.
   */
  async uploadKeys(seller: SellerRow, offerId: string, keys: string[]): Promise<KeyUploadAnswer> {
    const offer = await this.ownOffer(seller, offerId);
    const { rows, duplicates, invalid } = await this.sealKeys(offer, keys);
    const { added, games } = await this.db.transaction(async (tx) => {
      const stored = await insertKeys(tx, rows);
      return { added: stored, games: stored > 0 ? await refreshMarket(tx, [offer.gameId]) : [] };
    });
    this.moved(games);
    // A key another seller (or this list twice over) already holds was skipped by the unique index.
    return { added, duplicates: duplicates + (rows.length - added), invalid };
  }

  /**
   * An offer's keys as seller_keys rows, sealed, by the marketplace's duplicate rule: each trimmed, an
   * invalid one counted and left out, and one the store knows (twice in the list, or ever sold for the
   * game) counted as a duplicate. A key in another seller's stock is left to the unique index at insert.
   * Uploads and the keys a declared-stock seller hands over (issue 24) both come through here.
   */
  async sealKeys(offer: { id: string; sellerId: string; gameId: string }, keys: string[]): Promise<{ rows: Array<typeof sellerKeys.$inferInsert>; duplicates: number; invalid: number }> {
    const { library } = this.deps;
    let invalid = 0;
    const unique = new Map<string, string>();
    let duplicates = 0;
    for (const raw of keys) {
      const serial = raw.trim();
      if (!keyIsValid(serial)) {
        invalid += 1;
        continue;
      }
      const hash = library.serialHash(normalizedSerial(serial));
      if (unique.has(hash)) duplicates += 1;
      else unique.set(hash, serial);
    }
    const candidates = [...unique].map(([serialHash, serial]) => ({ serialHash, serial, libraryHash: library.serialHash(serial) }));
    // A key sold before (by the house or a seller) is in the library under its serial as delivered, or as this seller wrote it.
    const sold = candidates.length > 0 ? await soldHashes(this.db, offer.gameId, [...new Set(candidates.flatMap((key) => [key.libraryHash, key.serialHash]))]) : new Set<string>();
    const fresh = candidates.filter((key) => !sold.has(key.libraryHash) && !sold.has(key.serialHash));
    duplicates += candidates.length - fresh.length;
    const rows = fresh.map((key) => {
      const id = newId(20);
      return {
        id,
        offerId: offer.id,
        sellerId: offer.sellerId,
        gameId: offer.gameId,
        serialEncrypted: library.seal(key.serial, id),
        serialHash: key.serialHash,
        libraryHash: key.libraryHash,
        masked: maskKey(key.serial),
      };
    });
    return { rows, duplicates, invalid };
  }

  async keys(seller: SellerRow, offerId: string): Promise<SellerKey[]> {
    const offer = await this.ownOffer(seller, offerId);
    return (await keysOfOffer(this.db, offer.id)).map((key) => ({ _id: key.id, masked: key.masked, state: key.state }));
  }

  async deleteKey(seller: SellerRow, offerId: string, keyId: string): Promise<void> {
    const offer = await this.ownOffer(seller, offerId);
    const games = await this.db.transaction(async (tx) => {
      const outcome = await deleteAvailableKey(tx, offer.id, keyId);
      if (outcome === 'missing') throw new NotFound(m.keyNotFound);
      if (outcome === 'not-available') throw new Conflict(m.keyNotAvailable);
      return refreshMarket(tx, [offer.gameId]);
    });
    this.moved(games);
  }

  // --- Sales and money ---------------------------------------------------------------------------

  async sales(seller: SellerRow, page: number): Promise<{ items: SellerSale[]; total: number; page: number; pageSize: number }> {
    const { rows, total } = await salesOf(this.db, seller.id, page, SELLER_PAGE_SIZE);
    const states = await this.deps.ledger.saleStates(rows.map((row) => row.id));
    return {
      items: rows.map((row) => {
        const state = states.get(row.id);
        const commission = row.commission_cents ?? 0;
        return {
          orderId: row.order_id,
          date: row.paid_at.toISOString(),
          gameId: row.game_id,
          title: row.title,
          quantity: row.quantity,
          price: centsToEuro(row.unit_price_cents),
          net: centsToEuro((row.unit_price_cents - commission) * row.quantity),
          state: row.refunded || state?.refunded ? 'refunded' : !state ? 'awaiting delivery' : state.released ? 'available' : 'held',
        };
      }),
      total,
      page,
      pageSize: SELLER_PAGE_SIZE,
    };
  }

  // --- The store's side --------------------------------------------------------------------------

  /** A game's offers that can be bought now, the house's included, best first (404 for a game not in the store). */
  async offersOfGame(gameId: string): Promise<GameOffer[]> {
    const [house, sellers] = await Promise.all([houseOffer(this.db, gameId), marketOffers(this.db, gameId)]);
    if (house === 'missing') throw new NotFound(m.gameNotFound);
    const all = [...sellers.map((offer) => ({ ...offer })), ...(house ? [house] : [])];
    all.sort(bestOfferFirst);
    return all.map((offer) => ({ offerId: offer.offerId, seller: { name: offer.sellerName, score: offer.score }, price: centsToEuro(offer.priceCents), stock: offer.stock }));
  }

  /** The floor below which a seller with enough deliveries leaves the store (the owner's, or 80). */
  async scoreFloor(db: Db = this.db): Promise<number> {
    const [row] = await db.select({ value: storeSettings.value }).from(storeSettings).where(eq(storeSettings.key, SCORE_FLOOR_SETTING));
    return typeof row?.value === 'number' ? row.value : DEFAULT_SCORE_FLOOR;
  }

  async setScoreFloor(floor: number): Promise<void> {
    await this.db.insert(storeSettings).values({ key: SCORE_FLOOR_SETTING, value: floor }).onConflictDoUpdate({ target: storeSettings.key, set: { value: floor, updatedAt: new Date() } });
    await this.refreshScores();
  }

  /** Rewrites every seller's score (every minute, and when the floor moves); offers of sellers crossing the floor enter or leave the store. */
  async refreshScores(): Promise<void> {
    const games = await this.db.transaction(async (tx) => {
      const touched = await refreshScores(tx, await this.scoreFloor(tx));
      return touched.length > 0 ? refreshMarket(tx, touched) : [];
    });
    this.moved(games);
  }

  /** Tells this instance's index and the other instances that these games' offers changed. */
  private moved(games: GameStock[]): void {
    if (games.length > 0) this.deps.events.emit('stock-moved', { games });
  }
}

/** A seller's commission: its own where the owner set one, the store's default for the rest. */
function commissionWithDefault(seller: SellerRow, fallback: Commission): Commission {
  return {
    percent: seller.commissionBasisPoints === null ? fallback.percent : seller.commissionBasisPoints / 100,
    fixedCents: seller.commissionFixedCents ?? fallback.fixedCents,
  };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

/** What a seller or an admin sees of a key: its last characters. */
export function maskKey(serial: string): string {
  const visible = serial.slice(-MASKED_KEY_VISIBLE);
  return `${'•'.repeat(Math.max(4, serial.length - visible.length))}${visible}`;
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
