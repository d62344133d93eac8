// What the orders module tells the rest of the app about an order's life, without knowing who
// listens (the app wires notifications here). Most listeners are called after the change is
// committed and must not make the caller wait: they return nothing and work in the background.
// A delivery's listener writes inside the delivery's transaction instead (an outbox): the customer
// is told exactly when the keys are in, even if the process dies right after the commit.
import type { Db } from '../../db/client.ts';

/** An order as a listener sees it; `userId` is null once the account is deleted. */
export interface OrderEventSubject {
  id: string;
  userId: string | null;
}

export interface OrderEvents {
  orderPaid(order: OrderEventSubject & { amountCents: number; currency: string }): void;
  keysDelivered(tx: Db, order: OrderEventSubject, keyCount: number): Promise<void>;
  /** Written in the transaction that closes the order, like keysDelivered. */
  paymentDeclined(tx: Db, order: OrderEventSubject, reason: string | null): Promise<void>;
}
