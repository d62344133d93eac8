// The back office's catalogue (issue 15): games with the owner's choices (hidden, featured, price
// override), the sync runs, and the store's markup setting. No sync writes any of the owner's choices.
import { and, desc, eq, ilike, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { centsToEuro, type AdminGame, type SyncRun } from '@keystore/contract';
import type { Db } from '../../db/client.ts';
import { readSetting, writeSetting } from '../../platform/settings.ts';
import { games, syncRuns } from './schema.ts';

const MARKUP_KEY = 'markupPercent';
/** A sync run not finished after this long was cut short (its instance died): it no longer blocks a new one. */
const RUN_STALE_MINUTES = 60;

const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export type GameRowOf = typeof games.$inferSelect;

export function toAdminGame(row: GameRowOf): AdminGame {
  return {
    _id: row.id,
    title: row.title,
    platform: row.platform,
    price: centsToEuro(row.priceCents),
    supplierPrice: centsToEuro(row.supplierPriceCents),
    priceOverride: row.priceOverrideCents === null ? null : centsToEuro(row.priceOverrideCents),
    stock: row.active ? row.stock : 0,
    hidden: row.hidden,
    featured: row.featured,
  };
}

/** Games whose title contains `q` (or whose id is `q`), hidden ones included, the most popular first. */
export async function adminGamePage(db: Db, q: string | undefined, page: number, pageSize: number): Promise<{ rows: GameRowOf[]; total: number }> {
  const where = q ? or(ilike(games.title, containing(q)), eq(games.id, q)) : undefined;
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(games)
      .where(where)
      .orderBy(desc(games.featured), desc(games.popularity), games.id)
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: sql<number>`count(*)::int` }).from(games).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

/**
 * Writes the owner's choices for a game; answers the row before and after, or undefined when there
 * is none. A price override is also the price at once (a sync keeps it: store.ts upsertProducts);
 * removing it goes back to the supplier's price with the markup the last sync used.
 */
export async function updateGame(
  db: Db,
  id: string,
  change: { hidden?: boolean | undefined; featured?: boolean | undefined; priceOverrideCents?: number | null | undefined },
  markupPercent: number,
): Promise<{ before: GameRowOf; after: GameRowOf } | undefined> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(games).where(eq(games.id, id)).for('update');
    if (!before) return undefined;
    const set: Partial<typeof games.$inferInsert> = { updatedAt: new Date() };
    if (change.hidden !== undefined) set.hidden = change.hidden;
    if (change.featured !== undefined) set.featured = change.featured;
    if (change.priceOverrideCents !== undefined) {
      set.priceOverrideCents = change.priceOverrideCents;
      set.priceCents = change.priceOverrideCents ?? Math.round((before.supplierPriceCents * (100 + markupPercent)) / 100);
    }
    const [after] = await tx.update(games).set(set).where(eq(games.id, id)).returning();
    return { before, after: after! };
  });
}

/** The latest sync runs, newest first. */
/** When the last successful sync of the cluster ended, or null before the first. */
export async function lastSyncSuccess(db: Db): Promise<Date | null> {
  const [row] = await db.select({ at: sql<string | Date | null>`max(${syncRuns.finishedAt})` }).from(syncRuns).where(and(isNotNull(syncRuns.finishedAt), isNull(syncRuns.error)));
  return row?.at ? new Date(row.at) : null;
}

export async function latestSyncRuns(db: Db, limit: number): Promise<SyncRun[]> {
  const rows = await db.select().from(syncRuns).orderBy(desc(syncRuns.id)).limit(limit);
  return rows.map((row) => ({
    id: row.id,
    supplier: row.supplier,
    full: row.full,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    outcome: row.finishedAt === null ? 'running' : row.error ? 'failed' : 'succeeded',
    added: row.added,
    updated: row.updated,
    unchanged: row.unchanged,
    skipped: row.skipped,
    deactivated: row.deactivated,
    error: row.error,
  }));
}

/** Whether a sync runs now on any instance (its run is recorded and not finished, and recent). */
export async function syncRunning(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ id: syncRuns.id })
    .from(syncRuns)
    .where(and(isNull(syncRuns.finishedAt), sql`${syncRuns.startedAt} > now() - ${RUN_STALE_MINUTES}::int * interval '1 minute'`))
    .limit(1);
  return row !== undefined;
}

/** The store's markup in percent: the owner's setting, or PRICE_MARKUP_PERCENT until one is made. */
export async function markupPercent(db: Db, fallback: number): Promise<number> {
  const value = await readSetting(db, MARKUP_KEY);
  return typeof value === 'number' ? value : fallback;
}

export async function setMarkupPercent(db: Db, value: number): Promise<void> {
  await writeSetting(db, MARKUP_KEY, value);
}
