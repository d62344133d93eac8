// The marketplace's sellers (issue 23): applying, the owner's approval, API keys, commission, hold days,
// the webhook endpoint and the score, and what a seller may read of its sales and money. Offers and keys
// are the offers module's (decision 031): a change here that moves them (status, commission, a score
// crossing the floor) is told to it in the same transaction ('sellers-changed'), and the lists show it
// at once on every instance ('stock-moved').
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
  SCORE_PRIOR,
  HOUSE_SELLER_ID,
  ORDER_CURRENCY,
  SELLER_PAGE_SIZE,
  sellerMessages as m,
  type AdminSeller,
  type ApiKey,
  type Commission,
  type PricePreview,
  type Seller,
  type SellerSale,
  type SellerStatus,
} from '@keystore/contract';
import type { Database, Db } from '../../db/client.ts';
import { Conflict, Forbidden, HttpError, NotFound } from '../../platform/errors.ts';
import type { GameStock, StoreEventBus } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { readSetting, writeSetting } from '../../platform/settings.ts';
import type { Ledger } from '../ledger/ports.ts';
import type { LibraryService } from '../library/ports.ts';
import {
  apiKeysOf,
  deleteApiKey,
  deleteApiKeysOfUser,
  findSeller,
  insertApiKey,
  insertSeller,
  salesOf,
  sellerCounts,
  sellerNameTaken,
  sellerOfApiKey,
  sellerOfUser,
  sellerPage,
  setWebhook,
  updateSeller,
  type SellerRow,
} from './store.ts';
import { refreshScores, sellerScores } from './score.ts';
import { sellers as sellersTable } from './schema.ts';

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

  find(id: string, db: Db = this.db): Promise<SellerRow | undefined> {
    return findSeller(db, id);
  }

  /** Registers a seller's webhook endpoint; `secretSealed` is kept only when it has no secret yet. */
  async saveWebhook(sellerId: string, url: string, secretSealed: string | null): Promise<void> {
    await setWebhook(this.db, sellerId, url, secretSealed);
  }

  async saveWebhookSecret(sellerId: string, secretSealed: string): Promise<void> {
    await updateSeller(this.db, sellerId, { webhookSecretSealed: secretSealed });
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
    const value = (await readSetting(db, COMMISSION_SETTING)) as Partial<Commission> | undefined;
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
      await writeSetting(tx, COMMISSION_SETTING, next);
      const following = (await tx.select().from(sellersTable).where(eq(sellersTable.status, 'active'))).filter(
        (seller) => seller.id !== HOUSE_SELLER_ID && (seller.commissionBasisPoints === null || seller.commissionFixedCents === null),
      );
      const games = await this.changed(tx, following.map((seller) => seller.id), { repriced: true });
      return { next, games };
    });
    this.moved(moved.games);
    return moved.next;
  }

  /**
   * Tells the offers module, in the change's transaction, that these sellers' status, commission or
   * score moved: their offers are repriced and leave or enter the store with it. Answers the games moved.
   */
  private async changed(tx: Db, sellerIds: string[], what: { repriced?: boolean; standing?: boolean }): Promise<GameStock[]> {
    const moved: GameStock[] = [];
    const repriced = what.repriced ?? false;
    const standing = what.standing ?? false;
    if (sellerIds.length > 0 && (repriced || standing)) await this.deps.events.publish('sellers-changed', { tx, sellerIds, repriced, standing, moved });
    return moved;
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
      // Hold days alone move no offer: only a status or a commission is told.
      const repriced = set.commissionBasisPoints !== undefined || set.commissionFixedCents !== undefined;
      return { row, games: await this.changed(tx, [row.id], { repriced, standing: set.status !== undefined }) };
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

  /** Deletes every API key of the user's seller account (a sign-out everywhere, a block); answers how many there were. */
  revokeAllOf(userId: string): Promise<number> {
    return deleteApiKeysOfUser(this.db, userId);
  }

  async deleteApiKey(seller: SellerRow, id: string): Promise<void> {
    if (!(await deleteApiKey(this.db, seller.id, id))) throw new NotFound(m.apiKeyNotFound);
  }

  // --- Offers ------------------------------------------------------------------------------------

  async pricePreview(seller: SellerRow, netCents: number): Promise<PricePreview> {
    const commission = await this.commissionOf(seller);
    return { netPrice: centsToEuro(netCents), commission: centsToEuro(commissionCents(netCents, commission)), price: centsToEuro(buyerPriceCents(netCents, commission)) };
  }

  // --- Sales and money ---------------------------------------------------------------------------

  async sales(seller: SellerRow, page: number): Promise<{ items: SellerSale[]; total: number; page: number; pageSize: number }> {
    const { rows, total } = await salesOf(this.db, seller.id, page, SELLER_PAGE_SIZE);
    const states = await this.deps.ledger.saleStates(rows.map((row) => row.id));
    return {
      items: rows.map((row) => {
        const state = states.get(row.id);
        const commission = row.commissionCents ?? 0;
        return {
          orderId: row.orderId,
          date: row.paidAt.toISOString(),
          gameId: row.gameId,
          title: row.title,
          quantity: row.quantity,
          price: centsToEuro(row.unitPriceCents),
          net: centsToEuro((row.unitPriceCents - commission) * row.quantity),
          state: row.refunded || state?.refunded ? 'refunded' : !state ? 'awaiting delivery' : state.released ? 'available' : 'held',
        };
      }),
      total,
      page,
      pageSize: SELLER_PAGE_SIZE,
    };
  }

  // --- The store's side --------------------------------------------------------------------------

  /** The floor below which a seller with enough deliveries leaves the store (the owner's, or 80). */
  async scoreFloor(db: Db = this.db): Promise<number> {
    const value = await readSetting(db, SCORE_FLOOR_SETTING);
    return typeof value === 'number' ? value : DEFAULT_SCORE_FLOOR;
  }

  async setScoreFloor(floor: number): Promise<void> {
    await writeSetting(this.db, SCORE_FLOOR_SETTING, floor);
    await this.refreshScores();
  }

  /** Rewrites every seller's score (every minute, and when the floor moves); offers of sellers crossing the floor enter or leave the store. */
  async refreshScores(): Promise<void> {
    const games = await this.db.transaction(async (tx) => this.changed(tx, await refreshScores(tx, await this.scoreFloor(tx)), { standing: true }));
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
