// What happens to an order when money moves (decision 008): paid (once, then its keys), declined
// or lapsed (its stock goes back), refunded (its keys are voided). Every change is forward-only
// and idempotent, so a provider may report the same outcome any number of times.
import diagnosticsChannel from 'node:diagnostics_channel';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  AUTHORISATION_DAYS,
  orderMessages,
  REVIEW_AUTO_APPROVE_BELOW,
  REVIEW_DEADLINE_HOURS,
  riskMessages,
  type OrderStatus,
  type PaymentProviderName,
  type RiskVerdict,
} from '@keystore/contract';
import type { Config } from '../../config.ts';
import type { Database, Db } from '../../db/client.ts';
import { recordAudit, type AuditActor } from '../../platform/audit.ts';
import { Conflict, NotFound } from '../../platform/errors.ts';
import type { GameStock, StoreEventBus } from '../../platform/events.ts';
import type { LibraryService } from '../library/ports.ts';
import type { PaymentOutcome, PaymentOutcomes, PaymentProvider, PaymentReport, ReceivedAmount } from '../payments/ports.ts';
import type { KeyAllocator } from './allocation.ts';
import type { AdminAction, OrderRefunds } from './refunds.ts';
import type { OffersService } from '../offers/ports.ts';
import type { AssessmentRow, CardScreening, RiskService } from '../risk/ports.ts';
import { findOrder, linesOf, lockOrder, ordersInReview, setAwaitingProviderRef, type OrderRow } from './store.ts';
import { byProvider, transition, type Actor, type Moved, type Which } from './transitions.ts';

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
  /** Assesses each payment before the keys go out, and records the decision on an order held for review (issue 29). */
  risk: Pick<RiskService, 'judge' | 'screen' | 'decide' | 'assessmentsOf'>;
}

/** A card that tells nothing: normal risk, no 3-D Secure, no fingerprint. */
const PLAIN_CARD: CardScreening = { providerRisk: 'normal', threeDSecure: false };

/** Rolls a payment's transaction back: the order was not the caller's to pay (payAwaiting's conditions). */
class NotMoved extends Error {}

/** An order held for review or refused, and the stock a refusal put back (told once it commits). */
interface Held {
  moved: Moved;
  returned: GameStock[];
}

/** An admin's decision on an order in review, or the review deadline's (`by` null). */
export interface ReviewDecider {
  by: string | null;
  note: string;
  /** The admin's decision is audited with it (the deadline's is in the timeline only). */
  actor?: AuditActor | undefined;
}

/** An order that can no longer be paid, and the state it is in: callers decide by `orderStatus`, never by the text. */
export class OrderNotPayable extends Conflict {
  readonly orderStatus: Exclude<OrderStatus, 'Awaiting payment'>;
  constructor(status: Exclude<OrderStatus, 'Awaiting payment'>) {
    super(notPayable[status]);
    this.orderStatus = status;
  }
}

export class PaymentStates implements Pick<PaymentOutcomes, 'markPaid' | 'markDeclined' | 'markExpired'> {
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
    // The risk desk first (issue 29): refused, or held for review while the money stays authorised.
    const assessment = await this.db.transaction((tx) => this.deps.risk.screen(tx, orderId, payment.card ?? PLAIN_CARD));
    if (assessment?.decision === 'block' || assessment?.decision === 'review') {
      const held = await this.db.transaction((tx) => this.holdOrRefuse(tx, { id: orderId }, assessment, payment));
      if (held) return this.afterHoldOrRefusal(held, assessment, payment);
      // Not awaiting payment: decided already, or lapsed before its money came (held or refused here too).
      const current = await findOrder(this.db, orderId);
      if (current?.status === 'In review' || current?.status === 'Declined') return { orderId, status: current.status, deliveryStatus: current.deliveryStatus, newlyPaid: false };
      if (current?.status === 'Expired' || current?.status === 'Cancelled') {
        const late = await this.lateAndRisky(current, assessment, payment);
        if (late) return late;
      }
    }
    if (payment.authorisedWith) await this.provider(payment.authorisedWith).capture?.({ id: orderId, providerRef: payment.providerRef ?? null });
    const paid = paidMove(payment);
    // The usual case in one statement: an order awaiting payment, whose stock is reserved, is paid.
    let [paidOrder] = await transition(this.db, { id: orderId }, { ...paid, status: { from: ['Awaiting payment'], to: 'Paid' } });
    let taken: GameStock[] = [];
    if (!paidOrder) {
      try {
        paidOrder = await this.db.transaction(async (tx) => {
          const order = await lockOrder(tx, orderId);
          if (!order) throw new NotFound(orderMessages.orderNotFound);
          if (order.status === 'Paid' || order.status === 'Refunded' || order.status === 'In review') return undefined;
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
    const which = { id: orderId, payableBy: { ...payer, at: new Date() } };
    // The risk desk judges first (issue 29), in one read (429 for a payer locked out for card testing).
    const judged = await this.deps.risk.judge(this.db, orderId, payment.card ?? PLAIN_CARD, payment.payer);
    if (!judged || judged.assessment.decision === 'accept') {
      // The usual case: paid in one statement, the assessment kept in it only when the order moved (so
      // nobody but its payer leaves one). No assessment: an order placed before the risk desk, paid as before.
      const [paidOrder] = await transition(this.db, which, { ...paidMove(payment), status: { from: ['Awaiting payment'], to: 'Paid' }, withMove: judged?.keptWithMove });
      if (!paidOrder) return undefined;
      return this.afterPayment(orderId, paidOrder, payment);
    }
    // Held or refused: the assessment and the move in one transaction; when the order is not the payer's to pay, nothing of it stays.
    const step = await this.db
      .transaction(async (tx) => {
        const assessment = await judged.keep(tx);
        if (assessment.decision !== 'accept') {
          const held = await this.holdOrRefuse(tx, which, assessment, payment);
          if (!held) throw new NotMoved();
          return { held, assessment };
        }
        // Accepted after all: another payment of it was assessed first, and that assessment stands.
        const [paidOrder] = await transition(tx, which, { ...paidMove(payment), status: { from: ['Awaiting payment'], to: 'Paid' } });
        if (!paidOrder) throw new NotMoved();
        return { paidOrder };
      })
      .catch((error: unknown) => {
        if (error instanceof NotMoved) return undefined;
        throw error;
      });
    if (!step) return undefined;
    if ('held' in step) return this.afterHoldOrRefusal(step.held!, step.assessment!, payment);
    return this.afterPayment(orderId, step.paidOrder, payment);
  }

  /**
   * An order the risk desk did not accept, in the payment's transaction: held for review (In review, its
   * keys reserved, the money authorised until the authorisation lapses; the admins told with the hold), or
   * refused outright (Declined, its keys back on the shelf). Undefined when it was not awaiting payment.
   */
  private async holdOrRefuse(tx: Db, which: Which, assessment: AssessmentRow, payment: Omit<PaymentReport, 'amount'>): Promise<Held | undefined> {
    if (assessment.decision === 'review') {
      const [held] = await transition(tx, which, {
        status: { from: ['Awaiting payment'], to: 'In review' },
        actor: byProvider,
        reason: `Held for review: risk score ${assessment.score}`,
        set: { providerRef: payment.providerRef, authorisedUntil: sql`now() + ${AUTHORISATION_DAYS}::int * interval '1 day'` },
      });
      if (!held) return undefined;
      await this.deps.events.publish('order-held', { tx, orderId: held.id, userId: held.userId, amountCents: held.amountCents, score: assessment.score, cancelRecommended: assessment.cancelRecommended });
      return { moved: held, returned: [] };
    }
    const [refused] = await transition(tx, which, {
      status: { from: ['Awaiting payment'], to: 'Declined' },
      delivery: { from: ['Pending'], to: 'Not delivered' },
      actor: byProvider,
      reason: riskMessages.paymentRefused,
      set: { declineReason: riskMessages.paymentRefused, providerRef: payment.providerRef },
    });
    return refused && { moved: refused, returned: await this.afterClosing(tx, refused.row, 'Declined', riskMessages.paymentRefused) };
  }

  /** After a hold's or a refusal's commit: a refused authorisation is released, the caller told. */
  private async afterHoldOrRefusal({ moved, returned }: Held, assessment: AssessmentRow, payment: Omit<PaymentReport, 'amount'>): Promise<PaymentOutcome> {
    payment.onCommitted?.();
    if (assessment.decision === 'block') {
      if (payment.authorisedWith) await this.releaseQuietly(payment.authorisedWith, { id: moved.id, providerRef: payment.providerRef ?? null });
      this.deps.events.emit('stock-moved', { games: returned });
      return { orderId: moved.id, status: 'Declined', deliveryStatus: 'Not delivered', newlyPaid: false };
    }
    this.deps.log.info({ orderId: moved.id, score: assessment.score }, 'order held for review');
    return { orderId: moved.id, status: 'In review', deliveryStatus: 'Pending', newlyPaid: false, gift: moved.row.gift };
  }

  /**
   * Money authorised for an order that lapsed before it came (Expired, or Cancelled by its buyer), which
   * the risk desk did not accept. Refused: the authorisation is released and the order stays as it
   * was. Held: its keys are taken again from their own offers and it waits In review as any held
   * order; when they were sold meanwhile, the authorisation is released (nothing was charged). Undefined
   * when the order moved meanwhile (the caller goes on as for any payment).
   */
  private async lateAndRisky(order: OrderRow, assessment: AssessmentRow, payment: PaymentReport): Promise<PaymentOutcome | undefined> {
    const release = () => (payment.authorisedWith ? this.releaseQuietly(payment.authorisedWith, { id: order.id, providerRef: payment.providerRef ?? null }) : Promise.resolve());
    if (assessment.decision === 'block') {
      await release();
      this.deps.log.warn({ orderId: order.id }, 'money for a lapsed order refused by the risk desk: its authorisation released');
      return { orderId: order.id, status: order.status, deliveryStatus: order.deliveryStatus, newlyPaid: false };
    }
    let held: Held | undefined;
    try {
      held = await this.db.transaction(async (tx) => {
        const current = await lockOrder(tx, order.id);
        if (current?.status !== 'Expired' && current?.status !== 'Cancelled') return undefined;
        const returned = await this.deps.offers.takeAgain(tx, order.id, await linesOf(tx, [order.id]));
        const [moved] = await transition(tx, { id: order.id }, {
          status: { from: [current.status], to: 'In review' },
          ...(current.deliveryStatus !== 'Pending' && { delivery: { from: [current.deliveryStatus], to: 'Pending' as const } }),
          actor: byProvider,
          reason: `Held for review: risk score ${assessment.score} (paid after the order had lapsed)`,
          set: { providerRef: payment.providerRef, authorisedUntil: sql`now() + ${AUTHORISATION_DAYS}::int * interval '1 day'` },
        });
        await this.deps.events.publish('order-held', { tx, orderId: moved!.id, userId: moved!.userId, amountCents: moved!.amountCents, score: assessment.score, cancelRecommended: assessment.cancelRecommended });
        return { moved: moved!, returned };
      });
    } catch (error) {
      if (!(error instanceof Conflict)) throw error;
      // Its keys were sold meanwhile: nothing to hold, and nothing was charged.
      await release();
      this.deps.log.warn({ orderId: order.id }, 'money for a lapsed order whose stock is gone, held by the risk desk: its authorisation released');
      return { orderId: order.id, status: order.status, deliveryStatus: order.deliveryStatus, newlyPaid: false };
    }
    if (!held) return undefined;
    this.deps.events.emit('stock-moved', { games: held.returned });
    return this.afterHoldOrRefusal(held, assessment, payment);
  }

  /** Releases an authorisation; a failure is logged (the provider lets it lapse by itself within days). */
  private async releaseQuietly(provider: PaymentProviderName, order: { id: string; providerRef: string | null }): Promise<void> {
    try {
      await this.provider(provider).releaseAuthorisation?.(order);
    } catch (error) {
      this.deps.log.error({ err: error, orderId: order.id }, 'could not release a payment authorisation: it lapses by itself');
    }
  }

  /**
   * Decides an order in review (issue 29): approved, its money is captured, it is Paid and its keys go
   * out at once; cancelled, its authorisation is released, it is Cancelled and its keys go back. The
   * decision is recorded once (risk.decide), so two instances or two admins never both decide one order:
   * the second gets a 409. A crash between the decision and its settling is finished by settleReviews.
   */
  async decideHeld(orderId: string, verdict: RiskVerdict, decider: ReviewDecider): Promise<PaymentOutcome> {
    const order = await findOrder(this.db, orderId);
    if (!order) throw new NotFound(orderMessages.orderNotFound);
    if (order.status !== 'In review') throw new Conflict(riskMessages.notInReview);
    const decided = await this.db.transaction(async (tx) => {
      if (!(await this.deps.risk.decide(tx, orderId, verdict, decider.by, decider.note))) return false;
      if (decider.actor) {
        await recordAudit(tx, { actor: decider.actor, action: verdict === 'approved' ? 'order.approve' : 'order.cancel', target: { type: 'order', id: orderId }, after: { note: decider.note } });
      }
      return true;
    });
    if (!decided) throw new Conflict(riskMessages.notInReview);
    return this.settleHeld(order, verdict, decider);
  }

  /** Carries out a decision on an order in review; safe to repeat (the provider's calls are idempotent, the moves conditional). */
  private async settleHeld(order: OrderRow, verdict: RiskVerdict, decider: ReviewDecider): Promise<PaymentOutcome> {
    const actor: Actor = decider.by ? `admin:${decider.by}` : 'system:review-deadline';
    const reason = decider.note || null;
    const ref = { id: order.id, providerRef: order.providerRef };
    if (verdict === 'approved') {
      await this.provider(order.provider).capture?.(ref);
      const [paid] = await transition(this.db, { id: order.id }, { ...paidMove({}), status: { from: ['In review'], to: 'Paid' }, actor, reason });
      if (paid) return this.afterPayment(order.id, paid, { deliverInBackground: true });
    } else {
      await this.releaseQuietly(order.provider, ref);
      const closed = await this.db.transaction(async (tx) => {
        const [moved] = await transition(tx, { id: order.id }, {
          status: { from: ['In review'], to: 'Cancelled' },
          delivery: { from: ['Pending'], to: 'Not delivered' },
          actor,
          reason,
          set: { declineReason: riskMessages.reviewCancelledNote },
        });
        return moved && (await this.afterClosing(tx, moved.row, 'Declined', riskMessages.reviewCancelledNote));
      });
      if (closed) this.deps.events.emit('stock-moved', { games: closed });
    }
    const current = (await findOrder(this.db, order.id))!;
    return { orderId: order.id, status: current.status, deliveryStatus: current.deliveryStatus, newlyPaid: false };
  }

  /**
   * The review desk's deadline, on any instance (decisions are recorded once): an order in review that
   * nobody decided 12 hours before its authorisation lapses is approved when its score is under 50,
   * otherwise cancelled as not reviewed in time; and a decision recorded but not carried out (a crash in
   * between) is carried out. Answers how many orders were settled.
   */
  async settleReviews(): Promise<number> {
    const held = await ordersInReview(this.db, 100);
    if (held.length === 0) return 0;
    const assessments = await this.deps.risk.assessmentsOf(held.map((order) => order.id));
    const deadline = Date.now() + REVIEW_DEADLINE_HOURS * 3_600_000;
    let settled = 0;
    for (const order of held) {
      const assessment = assessments.get(order.id);
      try {
        if (assessment?.verdict) {
          // Decided a while ago and still in review: its settling was interrupted.
          if (assessment.decidedAt && Date.now() - assessment.decidedAt.getTime() < 60_000) continue;
          await this.settleHeld(order, assessment.verdict, { by: assessment.decidedBy, note: assessment.decisionNote ?? '' });
          settled += 1;
          continue;
        }
        if (!order.authorisedUntil || order.authorisedUntil.getTime() > deadline) continue;
        const approve = (assessment?.score ?? 0) < REVIEW_AUTO_APPROVE_BELOW;
        const verdict: RiskVerdict = approve ? 'approved' : 'cancelled';
        const decider = { by: null, note: approve ? riskMessages.approvedUnreviewed : riskMessages.notReviewedInTime };
        if (!(await this.db.transaction((tx) => this.deps.risk.decide(tx, order.id, verdict, null, decider.note)))) continue;
        await this.settleHeld(order, verdict, decider);
        settled += 1;
      } catch (error) {
        this.deps.log.error({ err: error, orderId: order.id }, 'could not settle an order in review; tried again on the next run');
      }
    }
    return settled;
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
    const returned = await this.afterClosing(tx, order, status, reason);
    return {
      announce: async () => {
        this.deps.events.emit('stock-moved', { games: returned });
        if (status !== 'Declined') this.deps.events.emit(status === 'Expired' ? 'order-expired' : 'order-cancelled', { orderId, userId: order.userId });
      },
    };
  }

  /** What closing an order without its keys does in its transaction: its stock goes back, and a decline is told with it. Answers the stock moved. */
  private async afterClosing(tx: Db, order: OrderRow, status: ClosedStatus, reason: string | null): Promise<GameStock[]> {
    const returned = await this.deps.offers.release(tx, await linesOf(tx, [order.id]));
    // The customer hears of the decline exactly when it is committed.
    if (status === 'Declined') await this.deps.events.publish('order-declined', { tx, orderId: order.id, userId: order.userId, reason });
    return returned;
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
  'In review': riskMessages.orderInReview,
  Paid: orderMessages.orderAlreadyPaid,
  Refunded: orderMessages.orderRefunded,
  Disputed: riskMessages.orderDisputed,
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
