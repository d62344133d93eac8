// The orders of the back office (issue 15): the filtered table and its CSV export, one order with its
// buyer, payment, masked keys and timeline, and the support actions (refund, resend the receipt,
// retry the delivery). Each action is idempotent, refused with a 409 in a state that does not allow
// it, and recorded in the audit log; a refund also moves the order (its timeline holds it), the two
// others are shown in the timeline from their audit records, since they move no state.
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import {
  adminMessages,
  centsToEuro,
  csvSafe,
  maskKey,
  ORDER_CURRENCY,
  type AdminOrder,
  type AdminOrderList,
  type AdminOrderRow,
  type OrderEvent,
  type RiskQueueEntry,
  type RiskVerdict,
  REVIEW_DEADLINE_HOURS,
} from '@keystore/contract';

/** The most orders the review queue shows at once. */
const REVIEW_QUEUE_LIMIT = 200;
import type { Database } from '../../db/client.ts';
import { auditOfTarget, recordAudit, type AuditActor } from '../../platform/audit.ts';
import { Conflict, NotFound } from '../../platform/errors.ts';
import type { MailContext } from '../../platform/mail/layout.ts';
import { receiptMail } from '../../platform/mail/order-mails.ts';
import type { Mailer } from '../../platform/mailer.ts';
import type { LibraryService } from '../library/ports.ts';
import type { Accounts } from '../users/ports.ts';
import type { KeyAllocator } from './allocation.ts';
import { adminOrderBatches, adminOrderPage, type AdminOrderDbRow, type OrderFilter } from './admin-store.ts';
import type { PaymentStates } from './payment-states.ts';
import type { AdminAction } from './refunds.ts';
import type { OffersService } from '../offers/ports.ts';
import { toOrderRisk, type RiskService } from '../risk/ports.ts';
import { buyerOf, eventsOfOrder, findOrder, linesOf, lockOrder, ordersInReview, updateOrder, type OrderRow } from './store.ts';
import type { OrderLinks } from './guests.ts';
import type { GiftsService } from '../gifts/ports.ts';
import { toOrder } from './views.ts';

/** A second resend within this time (a double click, a retried request) sends nothing more. */
const RESEND_QUIET_SECONDS = 60;

/** What the timeline says of the actions that move no state. */
const ACTION_TEXT = { 'order.resend': 'Receipt sent again', 'order.retry-delivery': 'Delivery retried' } as const;

export const ORDER_CSV_COLUMNS = ['Order', 'Created', 'Status', 'Delivery', 'Amount', 'Currency', 'Items', 'Provider', 'Buyer e-mail', 'Buyer username'];

export interface OrderBackOfficeDeps {
  database: Database;
  library: LibraryService;
  accounts: Accounts;
  mailer: Mailer;
  mailContext: MailContext;
  payments: PaymentStates;
  allocator: KeyAllocator;
  /** Declared-stock sellers' reservations, shown in the timeline (issue 24). */
  offers: OffersService;
  /** A guest's receipt carries its order's link (issue 29). */
  links: OrderLinks;
  /** A gift's receipt names its recipient (issue 29). */
  gifts: Pick<GiftsService, 'recipientLabel'>;
  /** The risk desk's assessment of the order's payment (issue 29). */
  risk: Pick<RiskService, 'assessmentOf' | 'assessmentsOf'>;
}

export class OrderBackOffice {
  private readonly deps: OrderBackOfficeDeps;

  constructor(deps: OrderBackOfficeDeps) {
    this.deps = deps;
  }

  private get db() {
    return this.deps.database.db;
  }

  /** One page of the orders matching the filter, newest first. */
  async list(filter: OrderFilter, page: number, pageSize: number): Promise<AdminOrderList> {
    const { rows, total } = await adminOrderPage(this.db, filter, page, pageSize);
    return { items: rows.map(toAdminRow), total, page, pageSize };
  }

  /**
   * The orders matching the filter as CSV (RFC 4180: CRLF, quotes where needed), read in batches and
   * streamed; every text cell a spreadsheet could run as a formula is defused (csvSafe).
   */
  csv(filter: OrderFilter): Readable {
    const csv = stringify({ header: true, columns: ORDER_CSV_COLUMNS, record_delimiter: 'windows' });
    const db = this.db;
    const records = Readable.from(
      (async function* () {
        for await (const batch of adminOrderBatches(db, filter)) {
          for (const row of batch.map(toAdminRow)) yield csvRecord(row);
        }
      })(),
    );
    records.on('error', (error) => csv.destroy(error));
    return records.pipe(csv);
  }

  /** One order as the back office shows it. */
  async detail(orderId: string): Promise<AdminOrder> {
    const row = await findOrder(this.db, orderId);
    if (!row) throw new NotFound(adminMessages.orderNotFound);
    const [lines, keys, events, actions, buyer, keysPerLine, reservations, assessment] = await Promise.all([
      linesOf(this.db, [orderId]),
      this.deps.library.keysOfOrder(orderId),
      eventsOfOrder(this.db, orderId),
      auditOfTarget(this.db, { type: 'order', id: orderId }, ['order.resend', 'order.retry-delivery']),
      row.userId ? this.deps.accounts.findById(row.userId) : undefined,
      this.deps.library.liveKeysPerLine([orderId]),
      this.deps.offers.timeline(orderId),
      this.deps.risk.assessmentOf(orderId),
    ]);
    const titles = new Map(lines.map((line) => [line.id, line.title]));
    const timeline: OrderEvent[] = [
      ...events.map((event) => ({ at: event.at, kind: event.kind, from: event.fromStatus, to: event.toStatus, actor: event.actor, reason: event.reason, ...(event.requestId && { requestId: event.requestId }) })),
      ...actions.map((action) => ({
        at: action.at,
        kind: 'action' as const,
        from: null,
        to: ACTION_TEXT[action.action as keyof typeof ACTION_TEXT],
        actor: `admin:${action.actorId}`,
        reason: action.reason,
      })),
      // Each reservation of a declared-stock seller, its moves and every call to its endpoint: "where is my key?" on one screen.
      ...reservations.flatMap((reservation) => [
        ...reservation.moves.map((move) => ({
          at: new Date(move.at),
          kind: 'seller' as const,
          from: move.from,
          to: `${reservation.seller} · ${reservation.title} × ${reservation.quantity}: ${move.to}`,
          actor: `seller:${reservation.seller}`,
          reason: move.reason,
        })),
        ...reservation.attempts.map((attempt) => ({
          at: new Date(attempt.at),
          kind: 'seller' as const,
          from: null,
          to: `${reservation.seller}: ${attempt.type} → ${attempt.status ?? 'no answer'} in ${attempt.durationMs} ms`,
          actor: `seller:${reservation.seller}`,
          reason: attempt.error,
        })),
      ]),
    ]
      .sort((a, b) => a.at.getTime() - b.at.getTime())
      .map((event) => ({ ...event, at: event.at.toISOString() }));
    return {
      order: toOrder(row, lines, keysPerLine),
      buyer: { id: row.userId, email: buyer?.email ?? null, username: buyer?.username ?? null },
      payment: { provider: row.provider, reference: row.providerRef },
      keys: keys.map((key) => ({ gameId: key.gameId, title: titles.get(key.lineId) ?? '', masked: maskKey(key.serial), revealed: key.revealed })),
      timeline,
      risk: assessment ? toOrderRisk(assessment) : null,
    };
  }

  /** Refunds a paid order (PaymentStates.refund); a refunded one answers as it is. */
  async refund(orderId: string, by: AdminAction): Promise<AdminOrder> {
    await this.deps.payments.refund(orderId, by);
    return this.detail(orderId);
  }

  /** The orders in review, those whose review deadline comes first first, with their assessments (issue 29). */
  async reviewQueue(): Promise<RiskQueueEntry[]> {
    const held = await ordersInReview(this.db, REVIEW_QUEUE_LIMIT);
    const userIds = [...new Set(held.flatMap((order) => (order.userId ? [order.userId] : [])))];
    const [assessments, accounts] = await Promise.all([
      this.deps.risk.assessmentsOf(held.map((order) => order.id)),
      Promise.all(userIds.map((id) => this.deps.accounts.findById(id))),
    ]);
    const emails = new Map(accounts.flatMap((account) => (account ? [[account.id, account.email] as const] : [])));
    return held.map((order) => {
      const assessment = assessments.get(order.id);
      return {
        orderId: order.id,
        placedAt: order.createdAt.toISOString(),
        email: order.email ?? (order.userId ? (emails.get(order.userId) ?? null) : null),
        amount: centsToEuro(order.amountCents),
        score: assessment?.score ?? 0,
        cancelRecommended: assessment?.cancelRecommended ?? false,
        facts: assessment?.facts ?? [],
        decideBy: new Date((order.authorisedUntil ?? order.createdAt).getTime() - REVIEW_DEADLINE_HOURS * 3_600_000).toISOString(),
      };
    });
  }

  /** The owner's decision on an order in review (issue 29), audited and in its timeline with the note; 409 for an order not in review. */
  async decideHeld(orderId: string, verdict: RiskVerdict, actor: AuditActor, note: string): Promise<AdminOrder> {
    await this.deps.payments.decideHeld(orderId, verdict, { by: actor.id, note, actor });
    return this.detail(orderId);
  }

  /**
   * Sends the receipt again (with the link to reveal the keys, never a key), through the outbox, to the buyer's own address only (never
   * one the caller names). Only for a paid order whose keys are delivered.
   */
  async resend(orderId: string, by: AdminAction): Promise<AdminOrder> {
    const order = await this.existing(orderId);
    if (order.status !== 'Paid' || order.deliveryStatus !== 'Delivered') throw new Conflict(adminMessages.resendNotAllowed);
    // The customer's account, or a guest's e-mail with its order's link.
    const buyer = await this.deps.links.recipient(order, await buyerOf(this.db, order));
    if (!buyer) throw new Conflict(adminMessages.resendNotAllowed);
    const giftTo = order.gift ? await this.deps.gifts.recipientLabel(orderId) : undefined;
    const [lines, keys] = await Promise.all([linesOf(this.db, [orderId]), this.deps.library.keysOfOrder(orderId)]);
    await this.db.transaction(async (tx) => {
      // Serialises the resends of one order, so the quiet time below holds between instances too.
      const current = await lockOrder(tx, orderId);
      if (current?.status !== 'Paid' || current.deliveryStatus !== 'Delivered') throw new Conflict(adminMessages.resendNotAllowed);
      const recent = await auditOfTarget(tx, { type: 'order', id: orderId }, ['order.resend']);
      if (recent.some((entry) => Date.now() - entry.at.getTime() < RESEND_QUIET_SECONDS * 1000)) return;
      await this.deps.mailer.enqueue(tx, receiptMail(this.deps.mailContext, buyer, order, lines, { demo: keys.some((key) => key.demo), giftTo }));
      await recordAudit(tx, { actor: by.actor, action: 'order.resend', target: { type: 'order', id: orderId }, after: { to: buyer.email }, reason: by.reason });
    });
    this.deps.mailer.flush();
    return this.detail(orderId);
  }

  /**
   * Makes a paid order whose keys are not all in due for delivery now, and starts a run on this
   * instance (another instance's retry job takes it if this one is busy with it: a run owns its
   * order). Repeating it only makes it due again.
   */
  async retryDelivery(orderId: string, by: AdminAction): Promise<AdminOrder> {
    const order = await this.existing(orderId);
    if (order.status !== 'Paid' || order.deliveryStatus === 'Delivered') throw new Conflict(adminMessages.retryNotAllowed);
    await this.db.transaction(async (tx) => {
      const current = await lockOrder(tx, orderId);
      if (current?.status !== 'Paid' || current.deliveryStatus === 'Delivered') throw new Conflict(adminMessages.retryNotAllowed);
      await updateOrder(tx, orderId, { nextAllocationAt: new Date() });
      await recordAudit(tx, {
        actor: by.actor,
        action: 'order.retry-delivery',
        target: { type: 'order', id: orderId },
        before: { deliveryStatus: current.deliveryStatus, attempts: current.allocationAttempts, lastError: current.lastAllocationError },
        reason: by.reason,
      });
    });
    void this.deps.allocator.allocate(orderId);
    return this.detail(orderId);
  }

  private async existing(orderId: string): Promise<OrderRow> {
    const order = await findOrder(this.db, orderId);
    if (!order) throw new NotFound(adminMessages.orderNotFound);
    return order;
  }
}

function toAdminRow(row: AdminOrderDbRow): AdminOrderRow {
  return {
    _id: row.id,
    createdAt: new Date(row.created_at).toISOString(),
    status: row.status,
    deliveryStatus: row.delivery_status,
    amount: centsToEuro(row.amount_cents),
    currency: ORDER_CURRENCY,
    items: row.items ?? '',
    provider: row.provider,
    buyer: { id: row.user_id, email: row.email, username: row.username },
  };
}

/** One CSV record of an order; each text cell defused against formula injection. */
function csvRecord(row: AdminOrderRow): string[] {
  return [
    row._id,
    row.createdAt,
    row.status,
    row.deliveryStatus,
    row.amount.toFixed(2),
    row.currency,
    row.items,
    row.provider,
    row.buyer.email ?? '',
    row.buyer.username ?? '',
  ].map(csvSafe);
}
