// How the store takes money: one interface for every payment provider. The built-in test gateway
// (test-gateway.ts) and Stripe (stripe.ts) implement it; plugin.ts builds them before the orders
// module, which is handed them, and registers the routes that report payments once orders exist.
//
// A provider never changes an order itself: when money moves it calls the orders module through
// `PaymentOutcomes` (markPaid, markDeclined, markExpired), which does the state change, the stock
// and the keys, and is safe to call any number of times for the same order.
import type { DeliveryStatus, OrderStatus, PaymentProviderName } from '@keystore/contract';
import type { CardScreening, RiskIdentities } from '../risk/ports.ts';

/** An order as a provider needs it to open a checkout. Money in euro cents. */
export interface PayableOrder {
  id: string;
  amountCents: number;
  /** Always 'EUR' (SPEC §1). */
  currency: string;
  expiresAt: Date;
  /** The buyer's e-mail, for the provider's receipt (undefined if the account is gone). */
  customerEmail: string | undefined;
  /** A guest's order token (issue 29): the provider sends the buyer back to the order's own page with it. */
  returnToken?: string | undefined;
  lines: Array<{ gameId: string; title: string; image: string; quantity: number; unitPriceCents: number }>;
}

/** An order as a provider needs it to give the money back. */
export interface RefundableOrder {
  id: string;
  /** What goes back: the whole order, or with `part` that part of it. */
  amountCents: number;
  /**
   * Names a part of the order refunded on its own (some of its lines), so that part is refunded once
   * however often it is asked; absent: whatever of the order's money has not gone back yet.
   */
  part?: string;
  currency: string;
  /** What the provider reported when the order was paid (markPaid's `providerRef`), if anything. */
  providerRef: string | null;
}

/** A checkout opened for an order: where the buyer pays, and the provider's reference for it (Stripe's session id). */
export interface Checkout {
  url: string;
  /** Stored on the order awaiting payment (reopenUrl and refunds read it back); the test gateway has none. */
  providerRef?: string;
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /**
   * Opens the checkout of a new order: `/pay/{orderId}` on the test gateway, the hosted checkout page
   * for Stripe. Called once, right after the order is placed; a failure fails the order request.
   */
  openCheckout(order: PayableOrder): Promise<Checkout>;
  /**
   * Where the buyer goes back to paying an order awaiting payment after leaving its checkout (Stripe's
   * Cancel link), or after the answer to the order request was lost (the request repeated with its
   * Idempotency-Key): that same checkout while it is open, so one order never has two ways to be paid.
   * `providerRef` is what openCheckout answered.
   */
  reopenUrl(order: { id: string; providerRef: string | null }): Promise<string>;
  /**
   * Closes the checkout of an order the customer cancelled, so it cannot take money any more (Stripe:
   * the session is expired). Best effort: a payment that still arrives for a cancelled order is handled
   * like one for a lapsed order (its keys are taken again, or the money goes back).
   */
  closeCheckout?(order: { id: string; providerRef: string | null }): Promise<void>;
  /**
   * Gives the money of a paid order back (admin refund, or a payment that arrived for an order that
   * can no longer be served). Must be idempotent per order id: it may be called again after a crash.
   */
  refund(order: RefundableOrder): Promise<void>;
  /**
   * Takes the money of a payment only authorised so far (Stripe's manual capture, issue 29): an order the
   * risk desk accepted, or one approved after review. Idempotent: a payment captured already is left as it
   * is. A provider that charges at once (the test gateway) has none.
   */
  capture?(order: { id: string; providerRef: string | null }): Promise<void>;
  /** Releases an authorisation not to be captured (an order refused or cancelled in review): nothing is charged. Idempotent. */
  releaseAuthorisation?(order: { id: string; providerRef: string | null }): Promise<void>;
}

/** What a provider says it took. Null where it said nothing, which never matches an order. */
export interface ReceivedAmount {
  /** In the currency's smallest unit (cents), as the order's amount. */
  cents: number | null;
  /** ISO 4217 in any case: Stripe writes 'eur' where the order says 'EUR'. */
  currency: string | null;
}

/** What markPaid is told of a payment. */
export interface PaymentReport {
  /** Stored on the order for a later refund. */
  providerRef?: string;
  /** Checked against the order's amount before it counts as paid; the test gateway, which charges the order itself, leaves it out. */
  amount?: ReceivedAmount;
  /**
   * Answer as soon as the payment is recorded and get the keys in the background (a webhook: the
   * provider must hear back at once). Without it the paying customer's request waits a few seconds
   * for the keys, so the pay page can show them.
   */
  deliverInBackground?: boolean;
  /** Called once the payment is committed, before the wait for the keys (the request's purchase turn is given back then). */
  onCommitted?: () => void;
  /** What the card tells the risk desk (issue 29); without it the payment is assessed as a normal-risk card. */
  card?: CardScreening | undefined;
  /** Who pays at the store's own card form (address, browser): refused with 429 while locked out for card testing. */
  payer?: RiskIdentities | undefined;
  /** The money is only authorised with this provider (Stripe's manual capture): captured once the risk desk accepts the order. */
  authorisedWith?: PaymentProviderName | undefined;
}

/** What markPaid answers: the order's state after the call. */
export interface PaymentOutcome {
  orderId: string;
  status: OrderStatus;
  deliveryStatus: DeliveryStatus;
  /** False when the order had been paid already (a repeated webhook, a second click): nothing changed. */
  newlyPaid: boolean;
  /** Bought for someone else (issue 29): its keys went to the recipient, not the payer's library. */
  gift?: boolean;
}

/**
 * The orders module's side of a payment (implemented by OrdersService). Every call is idempotent:
 * an order already in the target state, or past it, is left as it is.
 */
export interface PaymentOutcomes {
  /**
   * The money is in. Marks the order Paid (once) and allocates its keys at once, waiting a few
   * seconds for the supplier; keys that take longer arrive through the retry job. A payment for an
   * order that expired meanwhile takes its stock again, or is refunded when the stock is gone.
   * `providerRef` is stored on the order for a later refund. A reported `amount` other than the
   * order's changes nothing (logged as an error for the operator), whatever state the order is in.
   * Unknown order: NotFound.
   */
  markPaid(orderId: string, payment?: PaymentReport): Promise<PaymentOutcome>;
  /** The payment failed: an order awaiting payment becomes Declined and its stock goes back. */
  markDeclined(orderId: string, reason: string): Promise<void>;
  /** The provider's checkout lapsed: an order awaiting payment becomes Expired and its stock goes back. */
  markExpired(orderId: string): Promise<void>;
  /** The card holder disputed a paid order's payment, and the network took the money back (issue 29); `feeCents` is the network's fee. */
  markDisputed(orderId: string, dispute: { reference: string; feeCents: number }): Promise<void>;
  /** A dispute closed, won or lost. */
  markDisputeClosed(orderId: string, won: boolean): Promise<void>;
  /** The card's issuer warned that the payment was fraudulent (Stripe Radar's early fraud warning). */
  markFraudWarning(orderId: string): Promise<void>;
}
