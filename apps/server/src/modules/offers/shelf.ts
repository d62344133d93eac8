// The house's shelf (issue 29): a key the house bought from the supplier is sold once to its buyer,
// but when it comes back unrevealed (a dispute, a fraud warning, a refund) nobody has seen it, so the
// house sells it again, as a seller's returned key is. It waits on the shelf; the next delivery of a
// house line of its game takes it before asking the supplier for more. A key someone revealed is
// burnt: never sold again. Keys are sealed for their shelf row, as the library seals its own.
import { and, asc, eq, gt, notLike, sql } from 'drizzle-orm';
import { inList, queryRows, type Database, type Db } from '../../db/client.ts';
import { newId } from '../../platform/ids.ts';
import type { LibraryService, VoidedKey } from '../library/ports.ts';
import { houseShelf } from './schema.ts';

/** Told the game of every key put on the shelf. */
export const HOUSE_SHELF_CHANNEL = 'house_shelf_stocked';

/**
 * The games whose keys may be on the shelf, kept by each instance, so that a house delivery asks the
 * shelf only when it may hold its game's keys (nearly never: the purchase path pays nothing for it).
 * Read at start and again after a lost connection (which may have missed news), told of each key put
 * on the shelf by every instance, and a game is forgotten when a delivery found it bare. A game
 * forgotten wrongly (news arriving while the delivery asked) only leaves a key waiting until the next
 * one: it is never lost, the supplier is asked meanwhile.
 */
export class ShelvedGames {
  private readonly database: Database;
  private readonly games = new Map<string, number>();
  /** Until it is read, every game may have shelved keys. */
  private known = false;
  private news = 0;
  private stopListening: (() => Promise<void>) | undefined;

  constructor(database: Database) {
    this.database = database;
  }

  async start(): Promise<void> {
    const reread = () => {
      this.known = false;
      void this.read();
    };
    this.stopListening = await this.database.listen(HOUSE_SHELF_CHANNEL, (gameId) => this.games.set(gameId, ++this.news), { onReconnect: reread });
    await this.read();
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
  }

  /** Whether the shelf may hold keys of this game. */
  mayHold(gameId: string): boolean {
    return !this.known || this.games.has(gameId);
  }

  /** The news count now, to pass to `bare` after asking the shelf. */
  get mark(): number {
    return this.news;
  }

  /** A delivery found no key of the game left on the shelf, asked when the news count was `mark`. */
  bare(gameId: string, mark: number): void {
    if ((this.games.get(gameId) ?? 0) <= mark) this.games.delete(gameId);
  }

  private async read(): Promise<void> {
    const mark = this.news;
    try {
      const rows = await queryRows<{ game_id: string }>(this.database.db, sql`select distinct game_id from house_shelf where state = 'shelved'`);
      for (const row of rows) this.games.set(row.game_id, Math.max(this.games.get(row.game_id) ?? 0, mark));
      this.known = true;
    } catch {
      // Unknown until the connection is back (onReconnect reads again): every game may hold keys meanwhile.
    }
  }
}

/** A shelf key taken for a line: its row (the serial is sealed for it) and the line. */
export interface ShelfKey {
  id: string;
  lineId: string;
  serialEncrypted: string;
}

/**
 * The house's keys voided with an order (`keys`, of house lines only) go on the shelf when nobody
 * revealed them, and are burnt when someone may have seen them. Safe to repeat: one row per key of a game.
 */
export async function shelveKeys(tx: Db, library: LibraryService, orderId: string, keys: VoidedKey[]): Promise<void> {
  const unseen = keys.filter((key) => !key.revealed);
  if (unseen.length > 0) {
    await tx
      .insert(houseShelf)
      .values(
        unseen.map((key) => {
          const id = newId(20);
          return { id, gameId: key.gameId, serialEncrypted: library.seal(library.unseal(key.serialEncrypted, key.id), id), serialHash: key.serialHash, fromOrderId: orderId };
        }),
      )
      .onConflictDoUpdate({
        target: [houseShelf.gameId, houseShelf.serialHash],
        set: { state: 'shelved', lineId: null, takenAt: null, shelvedAt: sql`now()`, fromOrderId: sql`excluded.from_order_id` },
      });
  }
  // Every instance learns which games have keys on the shelf again (ShelvedGames), once this commits.
  for (const gameId of new Set(unseen.map((key) => key.gameId))) await tx.execute(sql`select pg_notify(${HOUSE_SHELF_CHANNEL}, ${gameId})`);
  const seen = keys.filter((key) => key.revealed);
  if (seen.length > 0) {
    await tx.execute(sql`update house_shelf set state = 'burnt', line_id = null, taken_at = null
      where (game_id, serial_hash) in (${sql.join(seen.map((key) => sql`(${key.gameId}, ${key.serialHash})`), sql`, `)})`);
  }
}

/**
 * The shelf keys of house lines being delivered: those taken for them before, and, when `takeMore`,
 * as many more as each line still wants, oldest first (never one another delivery is taking). One
 * statement; a delivery run takes more only before its supplier order exists, so a run repeated after
 * a crash asks the supplier for the same quantities.
 */
export function takeFromShelf(db: Db, lines: Array<{ id: string; gameId: string; quantity: number }>, takeMore: boolean): Promise<ShelfKey[]> {
  const taken = sql`select id, line_id as "lineId", serial_encrypted as "serialEncrypted" from house_shelf where line_id in ${inList(lines.map((line) => line.id))}`;
  if (!takeMore) return queryRows<ShelfKey>(db, taken);
  const want = sql.join(lines.map((line) => sql`(${line.id}::text, ${line.gameId}::text, ${line.quantity}::int)`), sql`, `);
  return queryRows<ShelfKey>(
    db,
    sql`with want(line_id, game_id, n) as (values ${want}),
        picked as (
          select s.id, w.line_id from want w cross join lateral (
            select id from house_shelf s where s.game_id = w.game_id and s.state = 'shelved'
            order by s.shelved_at, s.id
            limit greatest(w.n - (select count(*) from house_shelf t where t.line_id = w.line_id), 0)
            for update skip locked) s),
        took as (
          update house_shelf h set state = 'taken', line_id = p.line_id, taken_at = now() from picked p where h.id = p.id
          returning h.id, h.line_id as "lineId", h.serial_encrypted as "serialEncrypted")
        select * from took union all ${taken}`,
  );
}

/** The shelf keys taken for these lines are stored in their buyer's library: sold. */
export async function sellShelfKeys(tx: Db, lineIds: string[]): Promise<void> {
  if (lineIds.length === 0) return;
  await tx.execute(sql`update house_shelf set state = 'sold' where line_id in ${inList(lineIds)} and state = 'taken'`);
}

/** Lines ended before their keys were stored (refunded): the shelf keys taken for them, never seen, go back on the shelf. */
export async function putBackTaken(tx: Db, lineIds: string[]): Promise<void> {
  if (lineIds.length === 0) return;
  await tx.execute(sql`update house_shelf set state = 'shelved', line_id = null, taken_at = null where line_id in ${inList(lineIds)} and state = 'taken'`);
}

/** The shelf's sealed keys, for `keys:reencrypt` (as the library's and sellers' keys). */
export const sealedShelfKeys = {
  name: "the house's shelf",
  notUnder: (db: Db, currentPrefix: string, afterId: string, limit: number) =>
    db
      .select({ id: houseShelf.id, serialEncrypted: houseShelf.serialEncrypted })
      .from(houseShelf)
      .where(and(gt(houseShelf.id, afterId), notLike(houseShelf.serialEncrypted, `${currentPrefix}%`)))
      .orderBy(asc(houseShelf.id))
      .limit(limit),
  replace: async (db: Db, id: string, previous: string, next: string) =>
    (await db.update(houseShelf).set({ serialEncrypted: next }).where(and(eq(houseShelf.id, id), eq(houseShelf.serialEncrypted, previous))).returning({ id: houseShelf.id })).length > 0,
};
