// What the orders module tells the rest of the app about an order's life, without knowing who
// listens (the app wires notifications here). Listeners are called after the change is committed
// and must not make the caller wait: they return nothing and do their work in the background.

/** An order as a listener sees it; `userId` is null once the account is deleted. */
export interface OrderEventSubject {
  id: string;
  userId: string | null;
}

export interface OrderEvents {
  orderPaid(order: OrderEventSubject & { amountCents: number; currency: string }): void;
  keysDelivered(order: OrderEventSubject, keyCount: number): void;
  paymentDeclined(order: OrderEventSubject, reason: string | null): void;
}
