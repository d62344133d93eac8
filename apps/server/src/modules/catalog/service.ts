import { randomUUID } from 'node:crypto';
import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import { catalogMessages, centsToEuro, type Game, type GameListAnswer, type GameListItem, type QuickSearchHit } from '@keystore/contract';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { NotFound } from '../../platform/errors.ts';
import { coverUrl } from './cover-art.ts';
import { CatalogIndex, type CatalogQuery } from './search/catalog-index.ts';
import { IndexSnapshot } from './index-snapshot.ts';
import { biggestPriceDrops, catalogStamp, countGames, findGame, loadIndexBatches, parseIndexBatch, stampTime, stockChangedSince, type GameRow } from './store.ts';
import { DemoSupplier } from './supplier/demo.ts';
import { KinguinSupplier } from './supplier/kinguin.ts';
import type { Supplier } from './supplier/supplier.ts';
import { CATALOG_CHANNEL, syncCatalog, type SyncOutcome } from './sync.ts';

/** How often each instance brings the stock shown in lists up to date with the database. */
const STOCK_REFRESH_MS = 1000;
/**
 * A row's updated_at is its transaction's start, which may commit after a later-stamped one was
 * already seen: each refresh looks this far back, so a slow commit is still picked up.
 */
const STOCK_OVERLAP_MS = 60_000;

export interface CatalogOptions {
  /** Sync at start when the catalogue is empty, then on the configured schedule. Tests sync by hand. */
  autoSync: boolean;
  /** Another supplier than the configured one (tests hand in one pointed at a fake). */
  supplier?: Supplier;
}

/** The catalogue: reads from an in-memory index, writes through supplier syncs. */
export class CatalogService {
  private index = new CatalogIndex([], coverUrl);
  private readonly instanceId = randomUUID();
  private readonly supplier: Supplier;
  private cron: Cron | undefined;
  private stopListening: (() => Promise<void>) | undefined;
  private rebuilding: Promise<void> | undefined;
  private rebuildAgain = false;
  private syncing: Promise<SyncOutcome | undefined> | undefined;
  private stockTimer: NodeJS.Timeout | undefined;
  private refreshingStock: Promise<number> | undefined;
  /** The newest stock change the index holds (epoch ms). */
  private stockSeen = 0;
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
    this.supplier = options.supplier ?? supplierFromConfig(config);
    this.snapshot = new IndexSnapshot(config.dataDir, database.kind);
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
    this.ready = true;
    this.stockTimer = setInterval(() => {
      this.refreshStock().catch((error: unknown) => this.log.warn({ err: error }, 'could not refresh the stock shown in lists'));
    }, STOCK_REFRESH_MS).unref();
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
    clearInterval(this.stockTimer);
    await this.refreshingStock?.catch(() => undefined);
    await this.syncing;
    await this.rebuilding;
    await this.stopListening?.();
  }

  /** Runs a supplier sync now (one at a time), then rebuilds this index and tells the other instances. */
  syncNow(options: { full?: boolean } = {}): Promise<SyncOutcome | undefined> {
    this.syncing ??= (async () => {
      try {
        const outcome = await syncCatalog(
          { database: this.database, supplier: this.supplier, markupPercent: this.config.supplier.markupPercent, log: this.log },
          options,
        );
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
   * Brings the stock the lists show up to date: orders change it all the time, and rebuilding the
   * whole index for that would be waste. Runs every STOCK_REFRESH_MS on each instance, so keys
   * sold through any instance show everywhere; answers how many games it looked at.
   */
  refreshStock(): Promise<number> {
    this.refreshingStock ??= (async () => {
      try {
        const changed = await stockChangedSince(this.database.db, this.stockSeen - STOCK_OVERLAP_MS);
        for (const game of changed) {
          this.index.setStock(game.id, game.stock);
          this.stockSeen = Math.max(this.stockSeen, game.changedAt);
        }
        return changed.length;
      } finally {
        this.refreshingStock = undefined;
      }
    })();
    return this.refreshingStock;
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
          const rows = batches.flatMap(parseIndexBatch);
          this.index = new CatalogIndex(
            rows.map((row) => ({ ...row, stock: row.active ? row.stock : 0 })),
            coverUrl,
          );
          if (!saved) {
            this.snapshot.write(stamp, batches).catch((error: unknown) => this.log.warn({ err: error }, 'could not save the catalogue index'));
          }
          this.stockSeen = stampTime(stamp);
          this.log.info({ games: rows.length, ms: Math.round(performance.now() - started), fromSnapshot: Boolean(saved) }, 'catalogue index built');
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

  /** The game with its full description, fresh from the database (stock changes between syncs). */
  async game(id: string): Promise<Game> {
    const row = await findGame(this.database.db, id);
    if (!row) throw new NotFound(catalogMessages.gameNotFound);
    return toGame(row);
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

/** The key supplier the configuration names; the app builds one and shares it with the orders module. */
export function supplierFromConfig(config: Config): Supplier {
  if (config.supplier.name === 'kinguin') {
    return new KinguinSupplier({ apiUrl: config.supplier.apiUrl, apiKey: config.supplier.apiKey ?? '', timeoutMs: config.supplier.timeoutMs });
  }
  return new DemoSupplier();
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
  };
}

/**
 * A rebuild leaves the old index and every row it was built from as garbage. When the process runs
 * with --expose-gc (the start commands do), collect it at once so the memory goes back to the system
 * instead of staying resident until V8 gets round to it.
 */
function releaseBuildGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
}
