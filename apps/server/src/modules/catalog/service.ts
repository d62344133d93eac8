import { randomUUID } from 'node:crypto';
import { Cron } from 'croner';
import { LRUCache } from 'lru-cache';
import type { FastifyBaseLogger } from 'fastify';
import { activationFor, catalogMessages, centsToEuro, PRICE_HISTORY_DAYS, type PriceSeries, type AdminGame, type AdminGameList, type Game, type GameListAnswer, type GameListItem, type QuickSearchHit, type SyncRun } from '@keystore/contract';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { NotFound } from '../../platform/errors.ts';
import { memoryReducingGc } from '../../platform/plugins/memory.ts';
import { adminGamePage, lastSyncSuccess, latestSyncRuns, markupPercent, setMarkupPercent, syncRunning, toAdminGame, updateGame } from './admin-store.ts';
import { coverUrl } from './cover-art.ts';
import { CatalogIndex, type CatalogQuery } from './search/catalog-index.ts';
import { IndexSnapshot } from './index-snapshot.ts';
import { GameStockRows } from './game-stock.ts';
import { priceAt, priceChanges } from './price-history.ts';
import { ShownStock } from './shown-stock.ts';
import { biggestPriceDrops, catalogStamp, countGames, findGame, findGameDetails, loadIndexBatches, parseIndexBatch, stampTime, type GameRow } from './store.ts';
import type { GameStock, StoreEventBus } from '../../platform/events.ts';
import type { Supplier } from '../supplier/ports.ts';
import { CATALOG_CHANNEL, syncCatalog, type SyncOutcome } from './sync.ts';
import type { Metrics } from '../../platform/metrics.ts';

/**
 * A row's updated_at is its update's time, which may commit after a read of changed rows that began
 * later: each such read also reaches this far before the previous one, longer than any transaction
 * that moves stock, so a slow commit is still picked up (shown-stock.ts).
 */
const STOCK_OVERLAP_MS = 60_000;

export interface CatalogOptions {
  /** Sync at start when the catalogue is empty, then on the configured schedule. Tests sync by hand. */
  autoSync: boolean;
  /** Where the catalogue comes from (shared with the orders module, which buys keys from it). */
  supplier: Supplier;
  /** Where a sync tells of the prices and stock it changed. */
  events: StoreEventBus;
  /** How far before the previous stock read the next one reaches (tests shorten it). */
  stockOverlapMs?: number;
  /** Where the syncs this instance runs are counted and timed. */
  metrics?: Metrics | undefined;
}

/** How many games' long texts (description, requirements) are kept for game pages. */
const DETAILS_KEPT = 5000;

/** What a game page adds to the list answer, read from the database once per game and index. */
type GameDetails = Pick<Game, 'description' | 'systemRequirements' | 'releaseDate' | 'activation'>;

/** The catalogue: reads from an in-memory index, writes through supplier syncs. */
export class CatalogService {
  private index = new CatalogIndex([], coverUrl);
  /** Moves on whenever what the index answers may have changed: a rebuild, or stock that moved. */
  private generation = 0;
  /** The long texts of the games whose pages were asked for lately; dropped with the index they go with. */
  private details = new LRUCache<string, GameDetails>({ max: DETAILS_KEPT });
  private readonly instanceId = randomUUID();
  private readonly supplier: Supplier;
  private cron: Cron | undefined;
  private stopListening: (() => Promise<void>) | undefined;
  private rebuilding: Promise<void> | undefined;
  private rebuildAgain = false;
  private syncing: Promise<SyncOutcome | undefined> | undefined;
  /** The stock the lists show, as orders on any instance move it (shown-stock.ts). */
  readonly shownStock: ShownStock;
  /** The games rows' stock columns, as the offers module moves them (decision 031). */
  readonly gameStock = new GameStockRows();
  private readonly stockOverlapMs: number;
  private readonly database: Database;
  private readonly config: Config;
  private readonly log: FastifyBaseLogger;
  private readonly options: CatalogOptions;
  private readonly snapshot: IndexSnapshot;
  ready = false;

  constructor(database: Database, config: Config, log: FastifyBaseLogger, options: CatalogOptions) {
    this.database = database;
    this.config = config;
    this.log = log;
    this.options = options;
    this.supplier = options.supplier;
    this.snapshot = new IndexSnapshot(config.dataDir, database.kind);
    this.stockOverlapMs = options.stockOverlapMs ?? STOCK_OVERLAP_MS;
    this.shownStock = new ShownStock({ database, log, instanceId: this.instanceId, show: (games) => this.showStock(games), overlapMs: this.stockOverlapMs });
    // Keys this instance's orders took or put back show here at once; the other instances are told.
    options.events.on('stock-moved', ({ games }) => {
      this.showStock(games);
      this.shownStock.moved(games);
    });
  }

  /** Changes whenever an answer built from the catalogue may change: part of every cached answer's key. */
  get version(): number {
    return this.generation;
  }

  private showStock(games: ReadonlyArray<GameStock>): void {
    let moved = false;
    for (const game of games) {
      if (this.index.setStock(game.gameId, game.stock)) moved = true;
      if (game.priceCents !== undefined && this.index.setPrice(game.gameId, game.priceCents)) moved = true;
    }
    if (moved) this.generation += 1;
  }

  /** Builds the index, listens for other instances' syncs, and starts the sync schedule. */
  async start(): Promise<void> {
    // Background work never rejects unhandled (DESIGN §6): each run catches, logs, and the next one retries.
    const rebuildInBackground = (why: string) => {
      this.rebuild().catch((error: unknown) => this.log.error({ err: error }, `could not rebuild the catalogue index (${why})`));
    };
    this.stopListening = await this.database.listen(
      CATALOG_CHANNEL,
      (payload) => {
        if (payload !== this.instanceId) rebuildInBackground('another instance synced');
      },
      // Syncs announced while the connection was down were missed: rebuild to catch up.
      { onReconnect: () => rebuildInBackground('catching up after a lost database connection') },
    );
    await this.rebuild();
    await this.shownStock.start();
    this.ready = true;
    if (!this.options.autoSync) return;
    this.cron = new Cron(this.config.supplier.syncCron, { protect: true, unref: true }, () => this.syncInBackground());
    if ((await countGames(this.database.db)) === 0) this.syncInBackground();
  }

  /** A scheduled sync: a failure (the supplier, or the database itself, down) is logged and the next run retries. */
  private syncInBackground(): void {
    this.syncNow().catch((error: unknown) => this.log.error({ err: error }, 'supplier sync could not run; the next scheduled run retries'));
  }

  async stop(): Promise<void> {
    this.cron?.stop();
    await this.shownStock.stop();
    await this.syncing;
    await this.rebuilding;
    await this.stopListening?.();
  }

  /** Runs a supplier sync now (one at a time), then rebuilds this index and tells the other instances. */
  syncNow(options: { full?: boolean } = {}): Promise<SyncOutcome | undefined> {
    this.syncing ??= (async () => {
      try {
        const started = performance.now();
        const outcome = await syncCatalog(
          { database: this.database, supplier: this.supplier, markupPercent: await this.markupPercent(), events: this.options.events, log: this.log },
          options,
        );
        if (outcome) {
          const labels = { outcome: outcome.error ? 'failed' : 'succeeded' };
          this.options.metrics?.syncRuns.inc(labels);
          this.options.metrics?.syncDuration.observe(labels, (performance.now() - started) / 1000);
        }
        if (outcome && outcome.added + outcome.updated + outcome.deactivated > 0) {
          await this.rebuild();
          await this.database.notify(CATALOG_CHANNEL, this.instanceId);
        }
        return outcome;
      } finally {
        this.syncing = undefined;
      }
    })();
    return this.syncing;
  }

  /**
   * Reads the stock of every game whose row changed since the last such read and shows it: what the
   * other instances' announcements may have missed (shown-stock.ts); answers how many games it read.
   */
  refreshStock(): Promise<number> {
    return this.shownStock.refresh();
  }

  /** Reloads the index from the database; calls during a rebuild coalesce into one more. */
  rebuild(): Promise<void> {
    if (this.rebuilding) {
      this.rebuildAgain = true;
      return this.rebuilding;
    }
    this.rebuilding = (async () => {
      try {
        do {
          this.rebuildAgain = false;
          const started = performance.now();
          const db = this.database.db;
          // The stamp is read before the rows: a change in between makes the saved stamp stale, never the rows.
          const stamp = await catalogStamp(db);
          const saved = await this.snapshot.read(stamp);
          const batches = saved ?? (await loadIndexBatches(db));
          // The index holds the rows' values, not the rows: no copy of 70,000 objects on the way.
          this.index = new CatalogIndex(batches.flatMap(parseIndexBatch), coverUrl);
          this.details = new LRUCache<string, GameDetails>({ max: DETAILS_KEPT });
          this.generation += 1;
          if (!saved) {
            this.snapshot.write(stamp, batches).catch((error: unknown) => this.log.warn({ err: error }, 'could not save the catalogue index'));
          }
          this.shownStock.readChangesFrom(stampTime(stamp) - this.stockOverlapMs);
          this.log.info({ games: this.index.size, ms: Math.round(performance.now() - started), fromSnapshot: Boolean(saved) }, 'catalogue index built');
          releaseBuildGarbage();
        } while (this.rebuildAgain);
      } finally {
        this.rebuilding = undefined;
      }
    })();
    return this.rebuilding;
  }

  /** A page of the catalogue as the JSON the API answers, built from each game's serialised answer. */
  listJson(query: CatalogQuery): string {
    const page = this.index.query(query);
    const items = page.docs.map((doc) => this.index.itemJson(doc)).join(',');
    return `{"items":[${items}],"total":${page.total},"page":${page.page},"pageSize":${page.pageSize},"facets":${page.facetsJson}}`;
  }

  list(query: CatalogQuery): GameListAnswer {
    return JSON.parse(this.listJson(query)) as GameListAnswer;
  }

  /** Up to `limit` games for a search, best match first, as JSON. */
  searchJson(text: string, limit: number): string {
    return `[${this.index.search(text, limit).map((doc) => this.index.itemJson(doc)).join(',')}]`;
  }

  quickSearch(text: string, limit: number): QuickSearchHit[] {
    return this.index.quickSearch(text, limit);
  }

  /**
   * A game page's answer as JSON, from the index (the stock as lists show it) and the game's long
   * texts, read once and kept. A game the owner hid is not in the index: not found.
   */
  async gameJson(id: string): Promise<string> {
    const doc = this.index.docOf(id);
    if (doc === undefined) throw new NotFound(catalogMessages.gameNotFound);
    const index = this.index;
    let details = this.details.get(id);
    if (!details) {
      const row = await findGameDetails(this.database.db, id);
      if (!row) throw new NotFound(catalogMessages.gameNotFound);
      details = { description: row.description, systemRequirements: row.systemRequirements ?? null, releaseDate: row.releaseDate, activation: activationFor(row.platform, row.launcher) };
      // Kept only if the index it goes with is still the one answering.
      if (index === this.index) this.details.set(id, details);
    }
    const item = index.itemJson(doc);
    return `${item.slice(0, -1)},${JSON.stringify(details).slice(1)}`;
  }

  /**
   * Games like `id` that can be bought now: of its platform and first genre, then of its platform, the
   * most popular first (never the game itself); an unknown or hidden game has none.
   */
  similar(id: string, limit: number): GameListItem[] {
    const doc = this.index.docOf(id);
    if (doc === undefined) return [];
    const game = this.index.item(doc);
    const found = new Map<string, GameListItem>();
    // Its platform and first genre, then its platform alone when those are too few.
    for (const filters of [{ platform: [game.platform], ...(game.genre[0] ? { genre: [game.genre[0]] } : {}) }, { platform: [game.platform] }]) {
      const page = this.index.query({ sort: 'popularity', page: 1, pageSize: limit * 3 + 1, filters });
      for (const other of page.docs) {
        const item = this.index.item(other);
        if (item._id !== id && item.stock > 0 && found.size < limit) found.set(item._id, item);
      }
      if (found.size >= limit) break;
    }
    return [...found.values()];
  }

  /** The games of `ids` the store shows, as its lists show them (a hidden or unknown game is left out). */
  listItems(ids: Iterable<string>): Map<string, GameListItem> {
    const items = new Map<string, GameListItem>();
    for (const id of ids) {
      const doc = this.index.docOf(id);
      if (doc !== undefined) items.set(id, this.index.item(doc));
    }
    return items;
  }

  /**
   * What a shown game cost at `at` (its price then, from the history), or its price now when the history
   * does not reach back so far; 404 for a game the store does not show.
   */
  async shownPriceCents(id: string, at?: Date): Promise<number> {
    const doc = this.index.docOf(id);
    if (doc === undefined) throw new NotFound(catalogMessages.gameNotFound);
    const then = at ? await priceAt(this.database.db, id, at) : undefined;
    return then ?? Math.round(this.index.item(doc).price * 100);
  }

  /** The prices a shown game had in the last `days`, each change once, the last point its current price now. */
  async priceSeries(id: string, days = PRICE_HISTORY_DAYS): Promise<PriceSeries> {
    const doc = this.index.docOf(id);
    if (doc === undefined) throw new NotFound(catalogMessages.gameNotFound);
    const current = this.index.item(doc).price;
    const series = (await priceChanges(this.database.db, id, days)).map((change) => ({ date: change.at.toISOString(), price: change.priceCents / 100 }));
    series.push({ date: new Date().toISOString(), price: current });
    return series;
  }

  /**
   * The game with its full description, as its page shows it (gameJson). With `withHidden`, from the
   * database, so that a game the owner hid is found too (a library showing a key bought before).
   */
  async game(id: string, options: { withHidden?: boolean } = {}): Promise<Game> {
    if (!options.withHidden) return JSON.parse(await this.gameJson(id)) as Game;
    const row = await findGame(this.database.db, id);
    if (!row) throw new NotFound(catalogMessages.gameNotFound);
    return toGame(row);
  }

  /** The markup the next sync applies: the owner's setting (back office), or PRICE_MARKUP_PERCENT. */
  markupPercent(): Promise<number> {
    return markupPercent(this.database.db, this.config.supplier.markupPercent);
  }

  async setMarkupPercent(value: number): Promise<void> {
    await setMarkupPercent(this.database.db, value);
  }

  /** Games as the back office lists them, hidden ones included. */
  async adminGames(q: string | undefined, page: number, pageSize: number): Promise<AdminGameList> {
    const { rows, total } = await adminGamePage(this.database.db, q, page, pageSize);
    return { items: rows.map(toAdminGame), total, page, pageSize };
  }

  /** Writes the owner's choices for a game and refreshes every instance's index; answers it before and after. */
  async updateGame(id: string, change: Parameters<typeof updateGame>[2]): Promise<{ before: AdminGame; after: AdminGame }> {
    const updated = await updateGame(this.database.db, id, change, await this.markupPercent());
    if (!updated) throw new NotFound(catalogMessages.gameNotFound);
    await this.changed();
    return { before: toAdminGame(updated.before), after: toAdminGame(updated.after) };
  }

  syncRuns(limit: number): Promise<SyncRun[]> {
    return latestSyncRuns(this.database.db, limit);
  }

  /** When the cluster's last successful sync ended (the metrics). */
  lastSyncSuccess(): Promise<Date | null> {
    return lastSyncSuccess(this.database.db);
  }

  /** Whether a sync is under way here or on any other instance. */
  async syncUnderWay(): Promise<boolean> {
    return this.syncing !== undefined || (await syncRunning(this.database.db));
  }

  /** Starts a sync in the background (the back office's "Sync now"); its failures are logged like a scheduled one's. */
  startSync(): void {
    this.syncInBackground();
  }

  /** After the owner changed games (back office): this index is rebuilt, and every other instance told to rebuild its own. */
  async changed(): Promise<void> {
    await this.rebuild();
    await this.database.notify(CATALOG_CHANNEL, this.instanceId);
  }

  /** In-stock games with the biggest price drops against their original price, biggest first. */
  async priceDrops(limit: number): Promise<GameListItem[]> {
    return (await biggestPriceDrops(this.database.db, limit)).map(toListItem);
  }

  /** What a generated cover needs, from the index. */
  coverSubject(id: string): { title: string; platform: string; type: string } | undefined {
    return this.index.get(id);
  }

  gameIds(): readonly string[] {
    return this.index.gameIds();
  }

  get size(): number {
    return this.index.size;
  }
}

function toListItem(row: GameRow): GameListItem {
  return {
    _id: row.id,
    title: row.title,
    image: row.image ?? coverUrl(row.id),
    coverImage: row.coverImage ?? coverUrl(row.id),
    platform: row.platform,
    price: centsToEuro(row.priceCents),
    originalPrice: row.originalPriceCents === null ? null : centsToEuro(row.originalPriceCents),
    type: row.type,
    genre: row.genres,
    region: row.region,
    languages: row.languages,
    pegi: row.pegi,
    // A product that left the feed is still listed, as out of stock.
    stock: row.active ? row.stock : 0,
    createdAt: row.createdAt.toISOString(),
  };
}

function toGame(row: GameRow): Game {
  return {
    ...toListItem(row),
    description: row.description,
    systemRequirements: row.systemRequirements ?? null,
    releaseDate: row.releaseDate,
    activation: activationFor(row.platform, row.launcher),
  };
}

/**
 * A rebuild leaves the old index and every row it was built from as garbage. When the process runs
 * with --expose-gc (the start commands do), a memory-reducing collection at once compacts the heap
 * and gives the pages back to the system, instead of keeping the build's peak resident.
 */
function releaseBuildGarbage(): void {
  memoryReducingGc()?.();
}
