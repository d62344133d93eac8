// Failover's order side (issue 24, decision 031): a line whose seller failed is moved, in the caller's
// transaction, to the next offer the offers module finds and reserves for it, and the line is rewritten
// to that offer. The line keeps the price the buyer paid.
import type { Db } from '../../db/client.ts';
import type { OffersService, Reroute } from '../offers/ports.ts';
import { linesOf, moveLineToOffer, type OrderLineRow } from './store.ts';

/** Moves `line` to the next offer at no more than `maxUnitCents` a key, never onto an offer another line of its order holds. */
export async function moveLine(offers: OffersService, tx: Db, line: OrderLineRow, maxUnitCents: number): Promise<Reroute> {
  // One line per offer in an order (the supplier's keys are matched to lines by product), as the lines are now.
  const taken = (await linesOf(tx, [line.orderId])).filter((other) => other.id !== line.id).map((other) => other.offerId);
  const moved = await offers.reroute(tx, line, maxUnitCents, taken);
  if (moved.moved) await moveLineToOffer(tx, line, moved.offer);
  return moved;
}
