// The house's shelf (issue 29): a key the house bought from the supplier is sold once to its buyer,
// but when it comes back unrevealed (a dispute, a fraud warning, a refund) nobody has seen it, so the
// house sells it again, as a seller's returned key is. It waits on the shelf; the next delivery of a
// house line of its game takes it before asking the supplier for more. A key someone revealed is
// burnt: never sold again. Keys are sealed for their shelf row, as the library seals its own.
import { and, asc, eq, gt, notLike, sql } from 'drizzle-orm';
import { inList, queryRows, type Db } from '../../db/client.ts';
import { newId } from '../../platform/ids.ts';
import type { LibraryService, VoidedKey } from '../library/ports.ts';
import { houseShelf } from './schema.ts';

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
