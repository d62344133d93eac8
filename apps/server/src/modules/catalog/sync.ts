import type { FastifyBaseLogger } from 'fastify';
import { LOCKS, type Database } from '../../db/client.ts';
import type { StoreEventBus } from '../../platform/events.ts';
import type { Supplier } from '../supplier/ports.ts';
import { deactivateMissing, finishSyncRun, lastGoodSyncStart, startSyncRun, upsertProducts, type GameChange } from './store.ts';

/** The channel on which an instance tells the others that the catalogue changed. */
export const CATALOG_CHANNEL = 'catalog_changed';

/** Feed updates can be stamped a little before we ask; incremental syncs look back this far. */
const OVERLAP_MS = 5 * 60_000;

export interface SyncOutcome {
  full: boolean;
  added: number;
  updated: number;
  unchanged: number;
  skipped: number;
  deactivated: number;
  error: string | null;
}

export interface SyncDependencies {
  database: Database;
  supplier: Supplier;
  markupPercent: number;
  /** Told of each known game whose price or stock a sync changed (price-changed, stock-changed). */
  events: StoreEventBus;
  log: FastifyBaseLogger;
}

/**
 * Brings the catalogue up to date with the supplier, once per cluster (advisory lock): in full the
 * first time, then what changed since the last good run. Each page's changed prices and stock are
 * told on the bus once the page is written; the run keeps its counts. A failure is recorded and logged; what was
 * already written stays, and the catalogue keeps being served. Answers undefined when another
 * instance is already syncing.
 */
export async function syncCatalog(deps: SyncDependencies, options: { full?: boolean } = {}): Promise<SyncOutcome | undefined> {
  const { database, supplier, markupPercent, events, log } = deps;
  const locked = await database.withAdvisoryLock(LOCKS.supplierSync, async () => {
    const db = database.db;
    const lastGood = options.full ? undefined : await lastGoodSyncStart(db, supplier.name);
    const since = lastGood ? new Date(lastGood.getTime() - OVERLAP_MS) : null;
    const startedAt = new Date();
    const outcome: SyncOutcome = { full: since === null, added: 0, updated: 0, unchanged: 0, skipped: 0, deactivated: 0, error: null };
    const runId = await startSyncRun(db, { supplier: supplier.name, full: outcome.full, since, startedAt });
    const seen = new Set<string>();
    try {
      for await (const page of supplier.listProducts(since)) {
        outcome.skipped += page.skipped;
        for (const product of page.products) seen.add(product.productId);
        const written = await upsertProducts(db, supplier.name, page.products, markupPercent, startedAt);
        outcome.added += written.added;
        outcome.updated += written.updated;
        outcome.unchanged += written.unchanged;
        announce(events, written.changes);
      }
      if (outcome.full) outcome.deactivated = await deactivateMissing(db, supplier.name, seen, startedAt);
    } catch (error) {
      outcome.error = error instanceof Error ? error.message : String(error);
      log.error({ err: error, supplier: supplier.name }, 'supplier sync failed; the last good catalogue stays served');
    }
    await finishSyncRun(db, runId, outcome);
    if (outcome.skipped > 0) log.warn({ skipped: outcome.skipped, supplier: supplier.name }, 'supplier sync skipped malformed products');
    log.info({ ...outcome, supplier: supplier.name }, 'supplier sync finished');
    return outcome;
  });
  return locked.ran ? locked.value : undefined;
}

function announce(events: StoreEventBus, changes: readonly GameChange[]): void {
  for (const { gameId, price, stock } of changes) {
    if (price) events.emit('price-changed', { gameId, ...price });
    if (stock) events.emit('stock-changed', { gameId, ...stock });
  }
}
