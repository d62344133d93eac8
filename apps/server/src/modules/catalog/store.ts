import { createHash } from 'node:crypto';
import { and, count, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { inList, queryRows, type Db } from '../../db/client.ts';
import { games, syncRuns } from './schema.ts';
import type { GameStock } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import type { IndexedGame } from './search/catalog-index.ts';
import type { SupplierProduct } from '../supplier/ports.ts';
import { SHOWN_PRICE, SHOWN_STOCK } from './game-stock.ts';


export type GameRow = typeof games.$inferSelect;

/** Our price: the supplier's plus the markup, rounded to the cent. */
function priceWithMarkup(supplierCents: number, markupPercent: number): number {
  return Math.round((supplierCents * (100 + markupPercent)) / 100);
}

/** Columns a sync rewrites when the feed says something new about a product. */
const FEED_COLUMNS = [
  'title', 'cover_image', 'image', 'platform', 'type', 'genres', 'region', 'languages', 'pegi', 'description',
  'system_requirements', 'supplier_price_cents', 'price_cents', 'original_price_cents', 'supplier_stock', 'release_date',
  'feed_hash', 'supplier_updated_at', 'launcher',
] as const;

/** A known game whose price or supplier quantity a page of the feed changed: the values before and after (stock as sold). */
export interface GameChange {
  gameId: string;
  price: { from: number; to: number } | undefined;
  stock: { from: number; to: number } | undefined;
}

/** What writing a page did: counts for the sync run, and each known game whose price or stock changed. */
interface PageWritten {
  added: number;
  updated: number;
  unchanged: number;
  changes: GameChange[];
}

/**
 * Writes one page of a feed. New products are added; known ones are rewritten only when the feed
 * says something different (or they had left the feed), so syncing the same feed twice changes nothing.
 */
export async function upsertProducts(
  db: Db,
  supplier: string,
  products: readonly SupplierProduct[],
  markupPercent: number,
  now: Date,
): Promise<PageWritten> {
  if (products.length === 0) return { added: 0, updated: 0, unchanged: 0, changes: [] };
  const unique = dedupe(products);
  // Read first: only a sync writes prices and the supplier's quantity, and syncs run one at a time
  // (an advisory lock), so these are the values this write replaces.
  const before = new Map(
    (
      await db
        .select({ productId: games.supplierProductId, priceCents: games.priceCents, supplierStock: games.supplierStock, stock: games.stock })
        .from(games)
        .where(and(eq(games.supplier, supplier), inArray(games.supplierProductId, unique.map((product) => product.productId))))
    ).map((row) => [row.productId, row]),
  );
  const rows = unique.map((product) => {
    const priceCents = priceWithMarkup(product.priceCents, markupPercent);
    return {
      id: newId(),
      supplier,
      supplierProductId: product.productId,
      title: product.title,
      image: product.coverImage,
      coverImage: product.coverImage,
      platform: product.platform,
      launcher: product.launcher ?? null,
      type: product.type,
      genres: product.genres,
      region: product.region,
      languages: product.languages,
      pegi: product.pegi,
      description: product.description,
      systemRequirements: product.systemRequirements,
      supplierPriceCents: product.priceCents,
      priceCents,
      originalPriceCents: product.originalPriceCents,
      supplierStock: product.stock,
      popularity: product.popularity,
      releaseDate: product.releaseDate,
      releasedAt: product.releaseDate ? new Date(`${product.releaseDate}T00:00:00Z`) : now,
      active: true,
      feedHash: feedHash(product, priceCents),
      supplierUpdatedAt: product.updatedAt,
      createdAt: now,
      updatedAt: now,
    };
  });
  const set: Record<string, unknown> = Object.fromEntries(FEED_COLUMNS.map((column) => [camel(column), sql.raw(`excluded.${column}`)]));
  const written = await db
    .insert(games)
    .values(rows)
    .onConflictDoUpdate({
      target: [games.supplier, games.supplierProductId],
      set: {
        ...set,
        active: true,
        updatedAt: now,
        // Our own sales raise popularity; a feed never lowers it.
        popularity: sql`greatest(${games.popularity}, excluded.popularity)`,
        releasedAt: sql`case when excluded.release_date is null then ${games.releasedAt} else excluded.released_at end`,
        // The owner's price (back office) outlives every sync; hidden and featured are never written here.
        priceCents: sql`coalesce(${games.priceOverrideCents}, excluded.price_cents)`,
      },
      setWhere: sql`${games.feedHash} is distinct from excluded.feed_hash or not ${games.active}`,
    })
    .returning({
      inserted: sql<boolean>`(xmax = 0)`,
      gameId: games.id,
      productId: games.supplierProductId,
      priceCents: games.priceCents,
      supplierStock: games.supplierStock,
      stock: games.stock,
    });
  const added = written.filter((row) => row.inserted).length;
  const changes: GameChange[] = [];
  for (const row of written) {
    const old = before.get(row.productId);
    if (!old) continue;
    const price = old.priceCents !== row.priceCents ? { from: old.priceCents, to: row.priceCents } : undefined;
    const stock = old.supplierStock !== row.supplierStock ? { from: old.stock, to: row.stock } : undefined;
    if (price || stock) changes.push({ gameId: row.gameId, price, stock });
  }
  return { added, updated: written.length - added, unchanged: rows.length - written.length, changes };
}

/** After a full sync: products the feed no longer lists stay, out of stock, because orders refer to them. */
export async function deactivateMissing(db: Db, supplier: string, seenProductIds: ReadonlySet<string>, now: Date): Promise<number> {
  const listed = await db
    .select({ productId: games.supplierProductId })
    .from(games)
    .where(and(eq(games.supplier, supplier), eq(games.active, true)));
  const missing = listed.map((row) => row.productId).filter((productId) => !seenProductIds.has(productId));
  for (let start = 0; start < missing.length; start += 1000) {
    await db
      .update(games)
      .set({ active: false, updatedAt: now })
      .where(and(eq(games.supplier, supplier), inArray(games.supplierProductId, missing.slice(start, start + 1000))));
  }
  return missing.length;
}

export async function countGames(db: Db): Promise<number> {
  const [row] = await db.select({ value: count() }).from(games);
  return row?.value ?? 0;
}

/** In-stock games sold below their original price, the biggest drop (in percent) first. */
export function biggestPriceDrops(db: Db, limit: number): Promise<GameRow[]> {
  const drop = sql`(${games.originalPriceCents} - ${games.priceCents})::float / ${games.originalPriceCents}`;
  return db
    .select()
    .from(games)
    .where(and(eq(games.active, true), eq(games.hidden, false), sql`${games.stock} > 0`, sql`${games.originalPriceCents} > ${games.priceCents}`))
    .orderBy(desc(drop), desc(games.popularity), games.id)
    .limit(limit);
}

export async function findGame(db: Db, id: string): Promise<GameRow | undefined> {
  const [row] = await db.select().from(games).where(eq(games.id, id));
  return row;
}

/** The long texts of a game page, which the index does not hold. */
export async function findGameDetails(db: Db, id: string): Promise<Pick<GameRow, 'description' | 'systemRequirements' | 'releaseDate' | 'platform' | 'launcher'> | undefined> {
  const [row] = await db
    .select({ description: games.description, systemRequirements: games.systemRequirements, releaseDate: games.releaseDate, platform: games.platform, launcher: games.launcher })
    .from(games)
    .where(eq(games.id, id));
  return row;
}

const INDEX_BATCH = 10_000;
/**
 * What a featured game (back office) adds to its popularity in the index, so featured games lead every
 * list sorted by popularity, the home carousel first; the index only sorts by it, never shows it.
 */
const FEATURED_LEAD = 1_000_000_000;

/** Batches read at once: PostgreSQL builds each batch's JSON on a core of its own. */
const INDEX_READS_AT_ONCE = 2;

/**
 * Everything the in-memory index holds, without the long texts it never answers with, as JSON
 * texts of row tuples (in no particular order: the index orders them). The games are split by a hash
 * of their id into batches of about INDEX_BATCH, read INDEX_READS_AT_ONCE at a time, each as one JSON
 * document: parsing one JSON text is far faster than decoding 10,000 rows with arrays and timestamps,
 * on the embedded database most of all, and building the JSON is most of PostgreSQL's work.
 */
export async function loadIndexBatches(db: Db): Promise<string[]> {
  const parts = Math.max(1, Math.ceil((await countGames(db)) / INDEX_BATCH));
  const batches: string[] = [];
  let next = 0;
  const reader = async () => {
    for (let part = next++; part < parts; part = next++) {
      const [answer] = await queryRows<{ batch: string; size: number }>(
        db,
        sql`select coalesce(json_agg(json_build_array(
              id, title, image, cover_image, platform, type, genres, region, languages, pegi, ${SHOWN_PRICE},
              original_price_cents, ${SHOWN_STOCK}, true, popularity + case when featured then ${FEATURED_LEAD} else 0 end,
              (extract(epoch from released_at) * 1000)::float8,
              (extract(epoch from created_at) * 1000)::float8
            ))::text, '[]') as batch, count(*)::int as size
            from games g where not hidden and mod(abs(hashtext(id)::bigint), ${parts}) = ${part}`,
      );
      if (answer!.size > 0) batches.push(answer!.batch);
    }
  };
  await Promise.all(Array.from({ length: Math.min(INDEX_READS_AT_ONCE, parts) }, reader));
  return batches;
}

/** The rows of one JSON batch, with no stock shown for a product no longer in the feed. */
export function parseIndexBatch(json: string): IndexRow[] {
  return (JSON.parse(json) as IndexRowTuple[]).map((t) => ({
    id: t[0], title: t[1], image: t[2], coverImage: t[3], platform: t[4], type: t[5], genres: t[6], region: t[7],
    // A product that left the feed is still listed, as out of stock.
    languages: t[8], pegi: t[9], priceCents: t[10], originalPriceCents: t[11], stock: t[13] ? t[12] : 0, active: t[13],
    popularity: t[14], releasedAt: t[15], createdAt: t[16],
  }));
}

/**
 * Changes whenever the catalogue does: its latest change, read from the updated_at index. Inserts
 * stamp updated_at, a trigger moves it on every update, and games are never deleted (orders refer
 * to them), so no change goes unseen.
 */
export async function catalogStamp(db: Db): Promise<string> {
  const [row] = await queryRows<{ stamp: string | null }>(
    db,
    sql`select ((extract(epoch from max(updated_at)) * 1000000)::bigint)::text as stamp from games`,
  );
  return row!.stamp ?? 'empty';
}

/** Time (epoch ms) of the newest change a catalogue stamp stands for; 0 for an empty catalogue. */
export function stampTime(stamp: string): number {
  return stamp === 'empty' ? 0 : Number(BigInt(stamp) / 1000n);
}

/**
 * The listed stock of every game whose row changed at or after `since` (epoch ms), and the database's
 * time of the read (`at`): every order and every returned reservation moves a game's stock, and its
 * updated_at. One statement, so `at` is the time of the snapshot the rows come from.
 */
export async function stockChangedSince(db: Db, since: number): Promise<{ at: number; changed: GameStock[] }> {
  const rows = await queryRows<{ at: number; id: string | null; stock: number | null; price: number | null }>(
    db,
    sql`select (extract(epoch from now()) * 1000)::float8 as at, c.id, c.stock, c.price
        from (select 1) one left join lateral (
          select g.id, ${SHOWN_STOCK} as stock, ${SHOWN_PRICE} as price from games g where g.updated_at >= to_timestamp(${since / 1000})
        ) c on true`,
  );
  return { at: rows[0]!.at, changed: rows.flatMap((row) => (row.id === null ? [] : [{ gameId: row.id, stock: row.stock!, priceCents: row.price! }])) };
}

/** The shown stock and price of some games: the house's (none once it left the feed) and the sellers' offers. */
export async function stockOf(db: Db, ids: string[]): Promise<GameStock[]> {
  if (ids.length === 0) return [];
  return queryRows<GameStock>(db, sql`select g.id as "gameId", ${SHOWN_STOCK} as stock, ${SHOWN_PRICE} as "priceCents" from games g where g.id in ${inList(ids)}`);
}

type IndexRowTuple = [
  string, string, string | null, string | null, string, string, string[], string, string[], number, number,
  number | null, number, boolean, number, number, number,
];
/** A row the index is built from: what the index holds, plus whether the product is still in the feed. */
export type IndexRow = IndexedGame & { active: boolean };

/** When the last sync that ended well started: the next incremental sync asks for changes since then. */
export async function lastGoodSyncStart(db: Db, supplier: string): Promise<Date | undefined> {
  const [row] = await db
    .select({ startedAt: syncRuns.startedAt })
    .from(syncRuns)
    .where(and(eq(syncRuns.supplier, supplier), isNull(syncRuns.error), isNotNull(syncRuns.finishedAt)))
    .orderBy(desc(syncRuns.startedAt))
    .limit(1);
  return row?.startedAt;
}

export async function startSyncRun(db: Db, run: { supplier: string; full: boolean; since: Date | null; startedAt: Date }): Promise<number> {
  const [row] = await db.insert(syncRuns).values(run).returning({ id: syncRuns.id });
  return row!.id;
}

export async function finishSyncRun(
  db: Db,
  id: number,
  outcome: { added: number; updated: number; unchanged: number; skipped: number; deactivated: number; error: string | null },
): Promise<void> {
  await db.update(syncRuns).set({ ...outcome, finishedAt: new Date() }).where(eq(syncRuns.id, id));
}

function feedHash(product: SupplierProduct, priceCents: number): string {
  const { updatedAt: _updatedAt, popularity: _popularity, ...content } = product;
  return createHash('sha256').update(JSON.stringify({ ...content, priceCents })).digest('base64url');
}

/** A feed that lists a product twice in one page keeps the last entry (one row can't be upserted twice in one statement). */
function dedupe(products: readonly SupplierProduct[]): SupplierProduct[] {
  return [...new Map(products.map((product) => [product.productId, product])).values()];
}

function camel(column: string): string {
  return column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
