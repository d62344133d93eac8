// Data access for claims (issue 24).
import { sql } from 'drizzle-orm';
import type { ClaimState } from '@keystore/contract';
import { queryRows, type Db } from '../../db/client.ts';
import { claims } from './schema.ts';

export type ClaimRow = typeof claims.$inferSelect;

/** A claim with what its views show: the game's title and the seller's name (their owners' read models). */
export interface ClaimView extends ClaimRow {
  title: string;
  sellerName: string;
}

const claimView = (where: ReturnType<typeof sql>, limit = 200) => sql`
  select c.id, c.key_id as "keyId", c.order_id as "orderId", c.line_id as "lineId", c.user_id as "userId", c.seller_id as "sellerId",
    c.game_id as "gameId", c.reason, c.message, c.state, c.seller_message as "sellerMessage", c.note, c.created_at as "createdAt",
    c.due_at as "dueAt", c.decided_at as "decidedAt", c.decided_by as "decidedBy", c.replaced_serial_sealed as "replacedSerialSealed",
    c.refund_cents as "refundCents", c.masked, g.title, s.name as "sellerName"
  from claims c join game_facts g on g.id = c.game_id join seller_facts s on s.id = c.seller_id
  where ${where} order by c.created_at desc, c.id desc limit ${limit}`;

export async function insertClaim(db: Db, row: typeof claims.$inferInsert): Promise<boolean> {
  const written = await db.insert(claims).values(row).onConflictDoNothing().returning({ id: claims.id });
  return written.length > 0;
}

export async function claimById(db: Db, id: string): Promise<ClaimView | undefined> {
  const [row] = await queryRows<ClaimView>(db, claimView(sql`c.id = ${id}`));
  return row;
}

export function claimsOfUser(db: Db, userId: string): Promise<ClaimView[]> {
  return queryRows<ClaimView>(db, claimView(sql`c.user_id = ${userId}`));
}

export function claimsOfOrder(db: Db, orderId: string): Promise<ClaimView[]> {
  return queryRows<ClaimView>(db, claimView(sql`c.order_id = ${orderId}`));
}

export function claimsOfSeller(db: Db, sellerId: string): Promise<ClaimView[]> {
  return queryRows<ClaimView>(db, claimView(sql`c.seller_id = ${sellerId}`));
}

export function claimsInState(db: Db, state: ClaimState | undefined): Promise<ClaimView[]> {
  return queryRows<ClaimView>(db, claimView(state ? sql`c.state = ${state}` : sql`true`));
}

/**
 * Moves a claim from one of `from` to `to`, locked, with what else changes; answers the row, or undefined
 * when it is no longer in one of those states (decided meanwhile, on this instance or another).
 */
export async function settleClaim(db: Db, id: string, from: ClaimState[], to: ClaimState, set: Partial<Pick<ClaimRow, 'sellerMessage' | 'note' | 'decidedBy' | 'replacedSerialSealed' | 'refundCents'>> = {}): Promise<ClaimRow | undefined> {
  const [row] = await queryRows<ClaimRow>(
    db,
    sql`update claims set state = ${to}, decided_at = case when ${to} in ('replaced', 'refunded', 'declined') then now() else decided_at end,
          seller_message = coalesce(${set.sellerMessage ?? null}, seller_message), note = coalesce(${set.note ?? null}, note),
          decided_by = coalesce(${set.decidedBy ?? null}, decided_by), replaced_serial_sealed = coalesce(${set.replacedSerialSealed ?? null}, replaced_serial_sealed),
          refund_cents = coalesce(${set.refundCents ?? null}::int, refund_cents)
        where id = ${id} and state in (${sql.join(from.map((state) => sql`${state}`), sql`, `)})
        returning id, key_id as "keyId", order_id as "orderId", line_id as "lineId", user_id as "userId", seller_id as "sellerId", game_id as "gameId", state`,
  );
  return row;
}

/** Open claims whose seller's day is over, oldest first. */
export function claimsDue(db: Db, now: Date, limit: number): Promise<Array<{ id: string }>> {
  return queryRows(db, sql`select id from claims where state = 'open' and due_at <= ${now.toISOString()}::timestamptz order by due_at limit ${limit}`);
}

/** Whether a key has a claim the owner declined: the buyer writes to support rather than claim again. */
export async function hasDeclinedClaim(db: Db, keyId: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(db, sql`select id from claims where key_id = ${keyId} and state = 'declined' limit 1`);
  return rows.length > 0;
}
