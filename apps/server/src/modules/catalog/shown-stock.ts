// The stock the catalogue's lists show, kept right on every instance without polling (issue 22).
// An instance shows its own orders' stock moves at once (the 'stock-moved' event). On PostgreSQL it
// also announces the games they touched to the other instances (one NOTIFY per 50 ms at most, however
// many orders), and each of those reads the current stock of just those games: the stock is read,
// never taken from the message, so announcements that cross each other cannot leave an old value.
// What an announcement can miss (a process killed before it sent one, a notice lost while a LISTEN
// connection was down) is caught by a read of the rows changed since the last one: at a reconnect,
// and once a minute. The embedded database has one process, which sees every move itself: no
// announcement, no timer, no read at all while the store is quiet.
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { GameStock } from '../../platform/events.ts';
import { stockChangedSince, stockOf } from './store.ts';

export const STOCK_CHANNEL = 'stock_moved';
/** Moves are gathered this long into one announcement. */
const ANNOUNCE_AFTER_MS = 50;
/** The safety net: how often rows changed since the last read are read anyway (PostgreSQL). */
const SAFETY_READ_MS = 60_000;
/** Game ids per NOTIFY (PostgreSQL takes at most 8000 bytes of payload). */
const IDS_PER_NOTICE = 300;

export interface ShownStockDeps {
  database: Database;
  log: FastifyBaseLogger;
  /** This instance, so that it skips its own announcements. */
  instanceId: string;
  /** Puts stock read from the database into the index. */
  show: (games: readonly GameStock[]) => void;
  /** How far before the previous read of changed rows the next reaches (a transaction may commit after a read that began later). */
  overlapMs: number;
}

export class ShownStock {
  private readonly deps: ShownStockDeps;
  private readonly shared: boolean;
  /** Where the next read of changed rows starts (epoch ms, the database's clock). */
  private readFrom = 0;
  private toAnnounce = new Set<string>();
  private announceTimer: NodeJS.Timeout | undefined;
  private announcing: Promise<void> | undefined;
  private toRead = new Set<string>();
  private reading: Promise<void> | undefined;
  private refreshing: Promise<number> | undefined;
  private safetyTimer: NodeJS.Timeout | undefined;
  private stopListening: (() => Promise<void>) | undefined;
  /** Stock reads made so far (of announced games, and of changed rows): what a quiet store should not do. */
  reads = 0;

  constructor(deps: ShownStockDeps) {
    this.deps = deps;
    this.shared = deps.database.kind === 'postgres';
  }

  /** Listens for the other instances' announcements and starts the safety net (PostgreSQL only). */
  async start(): Promise<void> {
    if (!this.shared) return;
    const { database, log, instanceId } = this.deps;
    this.stopListening = await database.listen(
      STOCK_CHANNEL,
      (payload) => {
        const [from, ids] = payload.split(' ');
        if (from === instanceId || !ids) return;
        for (const id of ids.split(',')) this.toRead.add(id);
        this.readAnnounced();
      },
      // Announcements made while the connection was down were missed: read what changed meanwhile.
      { onReconnect: () => void this.refresh().catch((error: unknown) => log.warn({ err: error }, 'could not catch up on the stock after a reconnect')) },
    );
    this.safetyTimer = setInterval(() => {
      this.refresh().catch((error: unknown) => log.warn({ err: error }, 'could not read the stock changed lately; the next run retries'));
    }, SAFETY_READ_MS).unref();
  }

  /** The next read of changed rows starts here (after an index build: the newest change it holds, less the overlap). */
  readChangesFrom(ms: number): void {
    this.readFrom = ms;
  }

  /** This instance's orders moved these games' stock (already shown here): the other instances are told. */
  moved(games: readonly GameStock[]): void {
    if (!this.shared || games.length === 0) return;
    for (const game of games) this.toAnnounce.add(game.gameId);
    this.announceTimer ??= setTimeout(() => {
      this.announceTimer = undefined;
      this.announcing = this.announce().finally(() => (this.announcing = undefined));
    }, ANNOUNCE_AFTER_MS);
  }

  private async announce(): Promise<void> {
    const ids = [...this.toAnnounce];
    this.toAnnounce = new Set();
    try {
      for (let start = 0; start < ids.length; start += IDS_PER_NOTICE) {
        await this.deps.database.notify(STOCK_CHANNEL, `${this.deps.instanceId} ${ids.slice(start, start + IDS_PER_NOTICE).join(',')}`);
      }
    } catch (error) {
      // The others catch up at their next read of changed rows.
      this.deps.log.warn({ err: error, games: ids.length }, 'could not announce a stock move to the other instances');
    }
  }

  /** Reads the announced games' stock, one read at a time: ids announced meanwhile wait for the next. */
  private readAnnounced(): void {
    if (this.reading || this.toRead.size === 0) return;
    const ids = [...this.toRead];
    this.toRead = new Set();
    this.reads += 1;
    this.reading = stockOf(this.deps.database.db, ids)
      .then((games) => this.deps.show(games))
      .catch((error: unknown) => this.deps.log.warn({ err: error, games: ids.length }, 'could not read the stock another instance announced'))
      .finally(() => {
        this.reading = undefined;
        this.readAnnounced();
      });
  }

  /** Reads the stock of every game changed since the last such read (less the overlap); answers how many. */
  refresh(): Promise<number> {
    this.refreshing ??= (async () => {
      try {
        this.reads += 1;
        const { at, changed } = await stockChangedSince(this.deps.database.db, this.readFrom);
        this.deps.show(changed);
        this.readFrom = at - this.deps.overlapMs;
        return changed.length;
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  /** Sends what is left to announce, and stops. */
  async stop(): Promise<void> {
    clearInterval(this.safetyTimer);
    if (this.announceTimer) {
      clearTimeout(this.announceTimer);
      this.announceTimer = undefined;
      this.announcing = this.announce();
    }
    await Promise.allSettled([this.announcing, this.reading, this.refreshing]);
    await this.stopListening?.();
  }
}
