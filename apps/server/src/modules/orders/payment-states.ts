// What happens to an order when money moves (decision 008): paid (once, then its keys), declined
// or lapsed (its stock goes back), refunded (its keys are voided). Every change is forward-only
// and idempotent, so a provider may report the same outcome any number of times.
import diagnosticsChannel from 'node:diagnostics_channel';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { orderMessages, type OrderStatus, type PaymentProviderName } from '@keystore/contract';
import type { Config } from '../../config.ts';
import type { Database, Db } from '../../db/client.ts';
import { Conflict, NotFound } from '../../platform/errors.ts';
import type { GameStock, StoreEventBus } from '../../platform/events.ts';
import type { LibraryService } from '../library/ports.ts';
import type { PaymentOutcome, PaymentOutcomes, PaymentProvider, PaymentReport, ReceivedAmount } from '../payments/ports.ts';
import type { KeyAllocator } from './allocation.ts';
import type { AdminAction, OrderRefunds } from './refunds.ts';
import type { OffersService } from '../offers/ports.ts';
import { findOrder, linesOf, lockOrder, setAwaitingProviderRef, type OrderRow } from './store.ts';
import { byProvider, transition, type Actor, type Moved } from './transitions.ts';

/**
 * Published once a payment is committed, before its keys are asked for: a tracing point, which the
 * crash test (test/crash-after-payment.ts) uses to kill the process there.
 */
const paidChannel = diagnosticsChannel.channel('keystore:order-paid');

/** How long the paying request waits for the keys before answering "on their way". */
const ALLOCATION_WAIT_MS = 8000;
/**
 * A freshly paid order is the paying instance's to allocate; the retry job of any instance takes it
 * after this, unless a live process owns its delivery (allocation.ts): so a crash between the payment
 * and the keys delays them by seconds only.
 */
const RETRY_GRACE_MS = 3_000;

export interface PaymentStatesDeps {
  database: Database;
  config: Config;
  library: LibraryService;
  allocator: KeyAllocator;
  /** Refunds, and the payment providers by name. */
  refunds: OrderRefunds;
  log: FastifyBaseLogger;
  events: StoreEventBus;
  /** Where a lapsed order's keys are taken again, and a closed one's go back (decision 031). */
  offers: OffersService;
}

/** An order that can no longer be paid, and the state it is in: callers decide by `orderStatus`, never by the text. */
export class OrderNotPayable extends Conflict {
  readonly orderStatus: Exclude<OrderStatus, 'Awaiting payment'>;
  constructor(status: Exclude<OrderStatus, 'Awaiting payment'>) {
    super(notPayable[status]);
    this.orderStatus = status;
  }
}

export class PaymentStates implements PaymentOutcomes {
  private readonly deps: PaymentStatesDeps;

  constructor(deps: PaymentStatesDeps) {
    this.deps = deps;
  }

  private get db() {
    return this.deps.database.db;
  }

  /** The provider orders are paid and refunded through, by name (one lookup, in refunds.ts). */
  provider(name: PaymentProviderName): PaymentProvider {
    return this.deps.refunds.provider(name);
  }

  async markPaid(orderId: string, payment: PaymentReport = {}): Promise<PaymentOutcome> {
    if (payment.amount) {
      // One more read, only for providers that report an amount: the amount of an order never changes after it is placed.
      const order = await findOrder(this.db, orderId);
      if (!order) throw new NotFound(orderMessages.orderNotFound);
      if (!amountMatches(order, payment.amount)) return this.refuseAmount(order, payment.amount, payment.providerRef);
    }
    const paid = paidMove(payment);
    // The usual case in one statement: an order awaiting payment, whose stock is reserved, is paid.
    let [paidOrder] = await transition(this.db, { id: orderId }, { ...paid, status: { from: ['Awaiting payment'], to: 'Paid' } });
    let taken: GameStock[] = [];
    if (!paidOrder) {
      try {
        paidOrder = await this.db.transaction(async (tx) => {
          const order = await lockOrder(tx, orderId);
          if (!order) throw new NotFound(orderMessages.orderNotFound);
          if (order.status === 'Paid' || order.status === 'Refunded') return undefined;
          // Money for an order that had lapsed: its keys went back on the shelf and must be taken again.
          if (order.status !== 'Awaiting payment') {
            taken = await this.deps.offers.takeAgain(tx, orderId, await linesOf(tx, [orderId]));
          }
          const [moved] = await transition(tx, { id: orderId }, {
            ...paid,
            status: { from: [order.status], to: 'Paid' },
            ...(order.deliveryStatus !== 'Pending' && { delivery: { from: [order.deliveryStatus], to: 'Pending' as const } }),
          });
          return moved;
        });
      } catch (error) {
        if (!(error instanceof Conflict)) throw error;
        return this.refundUnservable(orderId, payment.providerRef);
      }
    }
    if (taken.length > 0) this.deps.events.emit('stock-moved', { games: taken });
    return this.afterPayment(orderId, paidOrder, payment);
  }

  /**
   * A customer's payment at the store's own card form, in one statement: their order, placed with
   * `payer.provider`, awaiting payment within its time, is paid. Undefined when it is not such an
   * order (the caller finds out why); nothing else is tried.
   */
  async payAwaiting(orderId: string, payer: { userId: string | undefined; provider: PaymentProviderName }, payment: Omit<PaymentReport, 'amount'> = {}): Promise<PaymentOutcome | undefined> {
    const [paidOrder] = await transition(this.db, { id: orderId, payableBy: { ...payer, at: new Date() } }, {
      ...paidMove(payment),
      status: { from: ['Awaiting payment'], to: 'Paid' },
    });
    return paidOrder && this.afterPayment(orderId, paidOrder, payment);
  }

  /** After a payment's commit: the caller told, the payment announced, and the keys of a newly paid order asked for. */
  private async afterPayment(orderId: string, paidOrder: Moved | undefined, payment: PaymentReport): Promise<PaymentOutcome> {
    const newlyPaid = paidOrder !== undefined;
    payment.onCommitted?.();
    if (paidOrder) {
      this.deps.events.emit('order-paid', { orderId, userId: paidOrder.userId, amountCents: paidOrder.amountCents, currency: paidOrder.currency });
      // Announced on a diagnostics channel too, before the keys are asked for (a tracing point).
      if (paidChannel.hasSubscribers) paidChannel.publish({ orderId });
      const gift = paidOrder.row.gift;
      if (payment.deliverInBackground) {
        void this.deps.allocator.allocate(orderId, paidOrder.row);
        return { orderId, status: 'Paid', deliveryStatus: 'Pending', newlyPaid, gift };
      }
      const allocated = await this.deps.allocator.allocateWithin(orderId, ALLOCATION_WAIT_MS, paidOrder.row);
      if (allocated === 'delivered') return { orderId, status: 'Paid', deliveryStatus: 'Delivered', newlyPaid, gift };
    }
    const order = (await findOrder(this.db, orderId))!;
    return { orderId, status: order.status, deliveryStatus: order.deliveryStatus, newlyPaid };
  }

  async markDeclined(orderId: string, reason: string): Promise<void> {
    await this.closeUnpaid(orderId, 'Declined', reason, byProvider);
  }

  async markExpired(orderId: string): Promise<void> {
    await this.closeUnpaid(orderId, 'Expired', null, byProvider);
  }

  /** Stores the provider's reference (Stripe's Checkout Session) on an order awaiting payment. */
  async setProviderRef(orderId: string, providerRef: string): Promise<void> {
    await setAwaitingProviderRef(this.db, orderId, providerRef);
  }

  /** Refunds a paid order (admin), within 30 days of payment (refunds.ts). */
  refund(orderId: string, by: AdminAction): Promise<OrderRow> {
    return this.deps.refunds.refundOrder(orderId, { admin: by });
  }

  /** Ends an unpaid order (declined, lapsed, cancelled by its buyer, or no checkout) and puts its stock back; any other state is left alone. */
  async closeUnpaid(orderId: string, status: ClosedStatus, reason: string | null, actor: Actor | SQL): Promise<void> {
    const closed = await this.db.transaction((tx) => this.closeWithin(tx, orderId, status, reason, actor));
    await closed?.announce();
  }

  /**
   * closeUnpaid in the caller's transaction (a placement whose sellers all refused closes its order with
   * the failures): answers what to announce once it commits, or undefined when the order was not awaiting payment.
   */
  async closeWithin(tx: Db, orderId: string, status: ClosedStatus, reason: string | null, actor: Actor | SQL): Promise<{ announce(): Promise<void> } | undefined> {
    const order = await lockOrder(tx, orderId);
    if (!order || order.status !== 'Awaiting payment') return undefined;
    await transition(tx, { id: orderId }, {
      status: { from: ['Awaiting payment'], to: status },
      delivery: { from: ['Pending'], to: 'Not delivered' },
      actor,
      reason,
      set: { declineReason: reason },
    });
    const returned = await this.deps.offers.release(tx, await linesOf(tx, [orderId]));
    // The customer hears of the decline exactly when it is committed.
    if (status === 'Declined') await this.deps.events.publish('order-declined', { tx, orderId, userId: order.userId, reason });
    return {
      announce: async () => {
        this.deps.events.emit('stock-moved', { games: returned });
        if (status !== 'Declined') this.deps.events.emit(status === 'Expired' ? 'order-expired' : 'order-cancelled', { orderId, userId: order.userId });
      },
    };
  }

  /**
   * The provider took another sum than the order's (a session edited in the provider's dashboard, a
   * currency mix-up): the order stays as it is and the operator settles it by hand. No automatic
   * refund: the money may be right and the order wrong, and only a person can tell.
   */
  private refuseAmount(order: OrderRow, received: ReceivedAmount, providerRef: string | undefined): PaymentOutcome {
    this.deps.log.error(
      { orderId: order.id, expected: { cents: order.amountCents, currency: order.currency }, received, providerRef, provider: order.provider },
      'payment amount differs from the order: not marked paid, settle it by hand',
    );
    return { orderId: order.id, status: order.status, deliveryStatus: order.deliveryStatus, newlyPaid: false };
  }

  /** Money arrived for an order that lapsed and whose keys are sold meanwhile: it goes straight back. */
  private async refundUnservable(orderId: string, providerRef: string | undefined): Promise<PaymentOutcome> {
    const order = (await findOrder(this.db, orderId))!;
    const ref = providerRef ?? order.providerRef;
    await this.provider(order.provider).refund({ id: order.id, amountCents: order.amountCents, currency: order.currency, providerRef: ref });
    const why = 'Paid after the order had lapsed and its keys were sold: refunded in full.';
    await transition(this.db, { id: orderId }, {
      status: { from: ['Expired', 'Declined', 'Cancelled'], to: 'Refunded' },
      actor: byProvider,
      reason: why,
      set: { paidAt: new Date(), refundedAt: new Date(), providerRef: ref, declineReason: why },
    });
    this.deps.log.warn({ orderId }, 'payment for a lapsed order whose stock is gone: refunded');
    const current = (await findOrder(this.db, orderId))!;
    if (current.status === 'Refunded') this.deps.events.emit('order-refunded', { orderId, userId: current.userId, amountCents: current.amountCents, currency: current.currency });
    return { orderId, status: current.status, deliveryStatus: current.deliveryStatus, newlyPaid: false };
  }
}

/** The states an unpaid order is closed in. */
type ClosedStatus = 'Declined' | 'Expired' | 'Cancelled';

/** The move to Paid, from whichever state the caller names: the money's reference, and the paying instance's grace before the retry job may deliver. */
function paidMove(payment: PaymentReport) {
  return {
    actor: byProvider,
    set: {
      paidAt: sql`now()`,
      // The delivery the payment starts is counted here, so it need not write the order again (deliveryOfPaid).
      allocationAttempts: sql`allocation_attempts + 1`,
      declineReason: null,
      nextAllocationAt: sql`now() + ${RETRY_GRACE_MS / 1000}::int * interval '1 second'`,
      providerRef: payment.providerRef,
    },
  };
}

/** Why an order in each state other than awaiting payment cannot be paid. */
const notPayable = {
  Paid: orderMessages.orderAlreadyPaid,
  Refunded: orderMessages.orderRefunded,
  Declined: orderMessages.orderDeclined,
  Expired: orderMessages.orderExpired,
  Cancelled: orderMessages.orderCancelled,
} as const satisfies Record<Exclude<OrderStatus, 'Awaiting payment'>, string>;

/** Throws OrderNotPayable (a 409 saying why) unless the order still awaits payment. */
export function assertAwaitingPayment(row: OrderRow): void {
  if (row.status !== 'Awaiting payment') throw new OrderNotPayable(row.status);
}

/** Whether the provider took exactly the order's amount, in its currency. */
function amountMatches(order: OrderRow, received: ReceivedAmount): boolean {
  return received.cents === order.amountCents && received.currency?.toUpperCase() === order.currency.toUpperCase();
}
