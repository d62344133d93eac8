// A reservation's life in one table (issue 24), like the order's (orders/transitions.ts):
//
//   requested ─reserve 2xx─▶ reserved ─provide 2xx─▶ provided ─keys in the library─▶ delivered
//       │                       │                        │
//       ├── refused/silent ─────┴── provide failed ──▶ failed
//       └── order lapsed or cancelled ─▶ expired / cancelled (also from reserved and provided)
//
// After payment a new reservation goes straight to `provide`, so requested → provided is allowed too.
// Every move is a conditional UPDATE (only from a state the table allows) and an event, in one statement:
// two instances racing over one reservation cannot both move it.
import { sql } from 'drizzle-orm';
import type { ReservationState } from '@keystore/contract';
import { inList, queryRows, type Db } from '../../db/client.ts';

export const RESERVATION_MOVES: Record<ReservationState, readonly ReservationState[]> = {
  requested: ['reserved', 'provided', 'failed', 'cancelled', 'expired'],
  reserved: ['provided', 'failed', 'cancelled', 'expired'],
  provided: ['delivered', 'cancelled', 'expired'],
  delivered: [],
  cancelled: [],
  expired: [],
  failed: [],
};

/** The states a reservation may come to `to` from. */
export function statesBefore(to: ReservationState): ReservationState[] {
  return (Object.keys(RESERVATION_MOVES) as ReservationState[]).filter((from) => RESERVATION_MOVES[from].includes(to));
}

/** The states in which a reservation still holds the seller's keys for its line. */
export const OPEN_STATES: readonly ReservationState[] = ['requested', 'reserved', 'provided'];
/** The states after which the seller is owed a `cancel`. */
export const CANCELLING_STATES: readonly ReservationState[] = ['failed', 'cancelled', 'expired'];

export interface MovedReservation {
  id: string;
  from: ReservationState;
  offerId: string;
  sellerId: string;
  orderId: string;
  lineId: string;
  gameId: string;
  quantity: number;
  unitNetCents: number;
}

/**
 * Moves the reservations `ids` (those in a state the table allows) to `to` with `reason`, records each
 * move, and answers the ones moved. A move to an ending state owes the seller a cancel, sent by the job.
 */
export async function moveReservations(tx: Db, ids: string[], to: ReservationState, reason: string | null, extra: ReturnType<typeof sql> = sql``): Promise<MovedReservation[]> {
  if (ids.length === 0) return [];
  const cancelling = CANCELLING_STATES.includes(to);
  return queryRows<MovedReservation>(
    tx,
    sql`with before as (
          select id, state from seller_reservations where id in ${inList(ids)} and state in ${inList(statesBefore(to))} for update
        ), moved as (
          update seller_reservations r set state = ${to}, reason = ${reason}, updated_at = now()
            ${cancelling ? sql`, cancel_state = 'due', cancel_next_at = now()` : sql``} ${extra}
          from before where r.id = before.id
          returning r.id, before.state as "from", r.offer_id as "offerId", r.seller_id as "sellerId", r.order_id as "orderId", r.line_id as "lineId",
            r.game_id as "gameId", r.quantity, r.unit_net_cents as "unitNetCents"
        ), logged as (
          insert into seller_reservation_events (reservation_id, from_state, to_state, reason) select id, "from", ${to}, ${reason} from moved
        )
        select * from moved`,
  );
}
