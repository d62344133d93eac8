// Data access for declared-stock reservations and their events (issue 24).
import { sql } from 'drizzle-orm';
import type { ReservationState, WebhookType } from '@keystore/contract';
import { inList, queryRows, type Db } from '../../db/client.ts';
import { newId } from '../../platform/ids.ts';
import { moveReservations, OPEN_STATES } from './transitions.ts';
import { currentRequestId } from '../../platform/request-context.ts';

export interface ReservationRow {
  id: string;
  orderId: string;
  lineId: string;
  offerId: string;
  sellerId: string;
  gameId: string;
  quantity: number;
  unitNetCents: number;
  state: ReservationState;
  reason: string | null;
  createdAt: Date;
  provideCalls: number;
}

const RESERVATION_COLUMNS = sql.raw(`r.id, r.order_id as "orderId", r.line_id as "lineId", r.offer_id as "offerId", r.seller_id as "sellerId",
  r.game_id as "gameId", r.quantity, r.unit_net_cents as "unitNetCents", r.state, r.reason, r.created_at as "createdAt", r.provide_calls as "provideCalls"`);

/**
 * Takes `quantity` of a declared offer's promised stock for an order line and writes the reservation,
 * `requested`, with its first event. Answers the reservation's id, or undefined when the offer no longer
 * promises that many (or is not a declared one).
 */
export async function reserveDeclared(tx: Db, offerId: string, orderId: string, lineId: string, quantity: number, state: 'requested' = 'requested'): Promise<string | undefined> {
  const id = newId(20);
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`with taken as (
          update offers set declared_stock = declared_stock - ${quantity}
          where id = ${offerId} and delivery = 'declared' and declared_stock >= ${quantity}
          returning id, seller_id, game_id, net_price_cents
        ), reservation as (
          insert into seller_reservations (id, order_id, line_id, offer_id, seller_id, game_id, quantity, unit_net_cents, state)
          select ${id}, ${orderId}, ${lineId}, id, seller_id, game_id, ${quantity}, net_price_cents, ${state} from taken
          returning id
        ), logged as (
          insert into seller_reservation_events (reservation_id, to_state, reason) select id, ${state}, 'order placed' from reservation
        )
        select id from reservation`,
  );
  return row?.id;
}


/** Gives a declared offer back the stock of reservations that ended on the buyer's side (lapsed, cancelled). */
export async function restoreDeclaredStock(tx: Db, moved: Array<{ offerId: string; quantity: number }>): Promise<void> {
  const totals = new Map<string, number>();
  for (const reservation of moved) totals.set(reservation.offerId, (totals.get(reservation.offerId) ?? 0) + reservation.quantity);
  for (const [offerId, quantity] of [...totals].sort(([a], [b]) => (a < b ? -1 : 1))) {
    await tx.execute(sql`update offers set declared_stock = declared_stock + ${quantity} where id = ${offerId}`);
  }
}

export async function findReservation(db: Db, id: string): Promise<ReservationRow | undefined> {
  const [row] = await queryRows<ReservationRow>(db, sql`select ${RESERVATION_COLUMNS} from seller_reservations r where r.id = ${id}`);
  return row;
}

/** The reservations of some lines still holding the seller's keys (requested, reserved or provided). */
export function openReservationsOfLines(db: Db, lineIds: string[]): Promise<ReservationRow[]> {
  if (lineIds.length === 0) return Promise.resolve([]);
  return queryRows<ReservationRow>(db, sql`select ${RESERVATION_COLUMNS} from seller_reservations r where r.line_id in ${inList(lineIds)} and r.state in ${inList(OPEN_STATES)} order by r.created_at, r.id`);
}

/** Reservations of an order in the states given, oldest first. */
export function reservationsOfOrder(db: Db, orderId: string, states?: readonly ReservationState[]): Promise<ReservationRow[]> {
  return queryRows<ReservationRow>(
    db,
    sql`select ${RESERVATION_COLUMNS} from seller_reservations r where r.order_id = ${orderId} ${states ? sql`and r.state in ${inList(states)}` : sql``} order by r.created_at, r.id`,
  );
}

/** An order's reservations, oldest first, with each game's title and its seller's name (the order's timeline). */
export function reservationsOfOrderNamed(db: Db, orderId: string): Promise<Array<ReservationRow & { title: string; seller: string }>> {
  return queryRows(
    db,
    sql`select ${RESERVATION_COLUMNS}, g.title, s.name as seller
        from seller_reservations r join game_facts g on g.id = r.game_id join seller_facts s on s.id = r.seller_id
        where r.order_id = ${orderId} order by r.created_at, r.id`,
  );
}

/** Offers a line has failed on (their reservations failed): failover does not go back to them. */
export async function failedOffersOfLine(db: Db, lineId: string): Promise<Set<string>> {
  const rows = await queryRows<{ offer_id: string }>(db, sql`select distinct offer_id from seller_reservations where line_id = ${lineId} and state = 'failed'`);
  return new Set(rows.map((row) => row.offer_id));
}

/** Records one call to the seller about a reservation. */
export async function recordCall(db: Db, reservationId: string, type: WebhookType, result: { status: number | null; error: string | null; durationMs: number }): Promise<void> {
  await db.execute(
    sql`insert into seller_reservation_events (reservation_id, call_type, http_status, error, duration_ms, request_id)
        values (${reservationId}, ${type}, ${result.status}, ${result.error?.slice(0, 500) ?? null}, ${result.durationMs}, ${currentRequestId() ?? null})`,
  );
}

export interface ReservationEventRow {
  reservationId: string;
  at: Date;
  fromState: ReservationState | null;
  toState: ReservationState | null;
  reason: string | null;
  callType: WebhookType | null;
  httpStatus: number | null;
  error: string | null;
  durationMs: number | null;
}

export function eventsOfReservations(db: Db, ids: string[]): Promise<ReservationEventRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return queryRows<ReservationEventRow>(
    db,
    sql`select reservation_id as "reservationId", at, from_state as "fromState", to_state as "toState", reason, call_type as "callType",
          http_status as "httpStatus", error, duration_ms as "durationMs"
        from seller_reservation_events where reservation_id in ${inList(ids)} order by id`,
  );
}

/** A page of a seller's reservations, newest first, with each game's title. */
export async function reservationPage(db: Db, sellerId: string, page: number, pageSize: number): Promise<{ rows: Array<ReservationRow & { title: string }>; total: number }> {
  const [rows, [total]] = await Promise.all([
    queryRows<ReservationRow & { title: string }>(
      db,
      sql`select ${RESERVATION_COLUMNS}, g.title from seller_reservations r join game_facts g on g.id = r.game_id
          where r.seller_id = ${sellerId} order by r.created_at desc, r.id desc limit ${pageSize} offset ${(page - 1) * pageSize}`,
    ),
    queryRows<{ n: number }>(db, sql`select count(*)::int as n from seller_reservations where seller_id = ${sellerId}`),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/**
 * Takes up to `limit` cancels whose time has come, each pushed two minutes ahead so no other instance
 * takes it meanwhile (a crash leaves it due again then). Answers them with their seller's webhook.
 */
export function takeDueCancels(db: Db, limit: number): Promise<Array<ReservationRow & { cancelAttempts: number; webhookUrl: string | null; webhookSecretSealed: string | null }>> {
  return queryRows(
    db,
    sql`with due as (
          select id from seller_reservations where cancel_state = 'due' and cancel_next_at <= now()
          order by cancel_next_at limit ${limit} for update skip locked
        )
        update seller_reservations r set cancel_next_at = now() + interval '2 minutes', cancel_attempts = r.cancel_attempts + 1
        from due, sellers s where r.id = due.id and s.id = r.seller_id
        returning ${RESERVATION_COLUMNS}, r.cancel_attempts as "cancelAttempts", s.webhook_url as "webhookUrl", s.webhook_secret_sealed as "webhookSecretSealed"`,
  );
}

/** A cancel answered (`sent`), given up after a day (`abandoned`), or due again at `next`. */
export async function settleCancel(db: Db, id: string, outcome: { state: 'sent' | 'abandoned' } | { next: Date }): Promise<void> {
  if ('state' in outcome) await db.execute(sql`update seller_reservations set cancel_state = ${outcome.state}, cancel_next_at = null where id = ${id}`);
  else await db.execute(sql`update seller_reservations set cancel_next_at = ${outcome.next.toISOString()}::timestamptz where id = ${id} and cancel_state = 'due'`);
}

/**
 * Ends the open reservations of lines whose order lapsed, was cancelled or refunded (in the caller's
 * transaction, the games rows locked first): the promised stock goes back to the offers, keys handed over for them are dropped (the
 * seller may hand them over again), and each seller is owed a cancel. Answers the games touched.
 */
export async function endLineReservations(tx: Db, lineIds: string[], to: 'cancelled' | 'expired', reason: string): Promise<string[]> {
  if (lineIds.length === 0) return [];
  const open = await queryRows<{ id: string; game_id: string }>(tx, sql`select id, game_id from seller_reservations where line_id in ${inList(lineIds)} and state in ${inList(OPEN_STATES)}`);
  if (open.length === 0) return [];
  const moved = await moveReservations(tx, open.map((row) => row.id), to, reason);
  await restoreDeclaredStock(tx, moved);
  for (const reservation of moved.filter((row) => row.from === 'provided')) {
    await tx.execute(sql`delete from seller_keys where line_id = ${reservation.lineId} and offer_id = ${reservation.offerId} and state = 'reserved'`);
  }
  return moved.map((row) => row.gameId);
}

/** Marks the provided reservations of delivered lines delivered (the delivery's transaction). */
export async function deliverLineReservations(tx: Db, lineIds: string[]): Promise<void> {
  if (lineIds.length === 0) return;
  const provided = await queryRows<{ id: string }>(tx, sql`select id from seller_reservations where line_id in ${inList(lineIds)} and state = 'provided'`);
  await moveReservations(tx, provided.map((row) => row.id), 'delivered', null);
}

/** The offer a seller line's keys came from (its sold or reserved keys name it); undefined for the house's lines. */
export async function offerOfLine(db: Db, lineId: string): Promise<{ offerId: string; sellerId: string; delivery: string; gameId: string } | undefined> {
  const [row] = await queryRows<{ offerId: string; sellerId: string; delivery: string; gameId: string }>(
    db,
    sql`select o.id as "offerId", o.seller_id as "sellerId", o.delivery, o.game_id as "gameId"
        from seller_keys k join offers o on o.id = k.offer_id where k.line_id = ${lineId} order by k.sold_at desc nulls last limit 1`,
  );
  return row;
}
