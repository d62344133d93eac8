// Money going back for a paid order: all of what is left of it (an admin's refund, or the store's
// own when the keys did not come within a day), or some of its lines (the supplier's price rose
// above what the buyer paid for them, allocation.ts). The provider gives the money back first, keyed
// so that a repeat after a crash returns it once; then, in one transaction, the lines or the order
// are marked, keys voided, stock reservations ended, and the buyer's mail written to the outbox.
import type { FastifyBaseLogger } from 'fastify';
import { adminMessages, orderMessages, REFUND_WINDOW_DAYS, type PaymentProviderName } from '@keystore/contract';
import type { Database, Db } from '../../db/client.ts';
import { recordAudit, type AuditActor } from '../../platform/audit.ts';
import { Conflict, HttpError, NotFound } from '../../platform/errors.ts';
import type { GameStock, StoreEventBus } from '../../platform/events.ts';
import type { MailContext } from '../../platform/mail/layout.ts';
import { refundMail, type Recipient } from '../../platform/mail/order-mails.ts';
import type { Mailer } from '../../platform/mailer.ts';
import type { Ledger } from '../ledger/ports.ts';
import type { LibraryService } from '../library/ports.ts';
import type { OffersService } from '../offers/ports.ts';
import type { PaymentProvider } from '../payments/ports.ts';
import { buyerOf, findOrder, linesOf, lockOrder, markLinesRefunded, type OrderLineRow, type OrderRow } from './store.ts';
import { transition, type Actor } from './transitions.ts';
import type { OrderLinks } from './guests.ts';

/** An admin's action on an order: who, and why (recorded in the order's timeline and the audit log). */
export interface AdminAction {
  actor: AuditActor;
  reason?: string | undefined;
}

/** Who gives the money back: an admin (audited, within 30 days of payment), or the store itself, which tells the buyer why. */
export type RefundBy = { admin: AdminAction } | { store: string; reason: string };

export interface OrderRefundsDeps {
  database: Database;
  library: LibraryService;
  ledger: Ledger;
  providers: PaymentProvider[];
  mailer: Mailer;
  mailContext: MailContext;
  log: FastifyBaseLogger;
  events: StoreEventBus;
  /** Where refunded lines' keys go back (decision 031). */
  offers: OffersService;
  /** A guest's mails link its order's page (issue 29). */
  links: OrderLinks;
}

/** A line's money: what its buyer paid for it. */
const lineCents = (line: OrderLineRow) => line.unitPriceCents * line.quantity;

export class OrderRefunds {
  private readonly deps: OrderRefundsDeps;
  private readonly providers: ReadonlyMap<PaymentProviderName, PaymentProvider>;

  constructor(deps: OrderRefundsDeps) {
    this.deps = deps;
    this.providers = new Map(deps.providers.map((provider) => [provider.name, provider]));
  }

  private get db() {
    return this.deps.database.db;
  }

  provider(name: PaymentProviderName): PaymentProvider {
    const provider = this.providers.get(name);
    if (!provider) throw new HttpError(503, orderMessages.paymentUnavailable);
    return provider;
  }

  /**
   * Refunds what is left of a paid order: the provider gives the money back first, then the order
   * becomes Refunded, every key it holds is voided, and the stock of keys never delivered goes back
   * on the shelf (a delivered key was bought from the supplier and is sold once, ever). Idempotent:
   * a refunded order answers as it is, nothing is refunded or recorded twice.
   */
  async refundOrder(orderId: string, by: RefundBy): Promise<OrderRow> {
    const order = await this.refundableOrder(orderId, by);
    if (order.status === 'Refunded') return order;
    const lines = await linesOf(this.db, [orderId]);
    const left = await this.owedBack(lines.filter((line) => !line.refundedAt));
    const provider = this.providers.get(order.provider);
    if (!provider) throw new Conflict(orderMessages.refundProviderMissing);
    await provider.refund({ id: order.id, amountCents: left, currency: order.currency, providerRef: order.providerRef });
    const actor: Actor = 'admin' in by ? `admin:${by.admin.actor.id}` : `system:${by.store}`;
    const reason = 'admin' in by ? (by.admin.reason ?? null) : by.reason;
    const refunded = await this.db.transaction(async (tx) => {
      const current = (await lockOrder(tx, orderId))!;
      // Another refund got here first (the provider's refund is idempotent per order).
      if (current.status === 'Refunded') return { row: current, moved: false, returned: [] as GameStock[] };
      assertRefundable(current, by);
      const held = await this.deps.library.keysPerLine(tx, orderId);
      const voided = await this.deps.library.voidKeysOfLines(tx, orderId, lines.map((line) => line.id), 'refunded');
      // A delivered order's reservations ended with its delivery. Otherwise the keys it already
      // holds were bought from the supplier, and the rest are simply no longer reserved (a line
      // refunded before gave its reservation back then).
      let returned: GameStock[] = [];
      if (current.deliveryStatus !== 'Delivered') {
        const open = lines.filter((line) => !line.refundedAt);
        await this.deps.offers.keepBoughtHouseKeys(tx, open.map((line) => ({ ...line, quantity: held.get(line.id) ?? 0 })));
        returned = await this.deps.offers.release(tx, open.map((line) => ({ ...line, quantity: line.quantity - (held.get(line.id) ?? 0) })));
      }
      // The sales posted at delivery are reversed; a key nobody saw goes back on sale (a seller's) or on the house's shelf.
      await this.deps.ledger.postRefunds(tx, orderId, lines.map((line) => line.id));
      returned = [...returned, ...(await this.deps.offers.returnUnrevealed(tx, orderId, lines, voided))];
      await transition(tx, { id: orderId }, {
        status: { from: ['Paid'], to: 'Refunded' },
        ...(current.deliveryStatus !== 'Delivered' && { delivery: { from: [current.deliveryStatus], to: 'Not delivered' as const } }),
        actor,
        reason,
        set: { refundedAt: new Date(), nextAllocationAt: null },
      });
      const row = (await lockOrder(tx, orderId))!;
      if ('admin' in by) {
        await recordAudit(tx, {
          actor: by.admin.actor,
          action: 'order.refund',
          target: { type: 'order', id: orderId },
          before: { status: current.status, deliveryStatus: current.deliveryStatus },
          after: { status: row.status, deliveryStatus: row.deliveryStatus },
          reason: by.admin.reason,
        });
      } else {
        await this.mailBuyer(tx, row, lines.filter((line) => !line.refundedAt), left, by.reason, true);
      }
      return { row, moved: true, returned };
    });
    if (!refunded.moved) return refunded.row;
    this.deps.events.emit('stock-moved', { games: refunded.returned });
    this.deps.log.info({ orderId, amountCents: left, provider: order.provider, by: actor }, 'order refunded');
    this.deps.events.emit('order-refunded', { orderId, userId: refunded.row.userId, amountCents: left, currency: refunded.row.currency });
    this.deps.mailer.flush();
    return refunded.row;
  }

  /**
   * Refunds some lines of a paid, undelivered order, which the store cannot buy without a loss: their
   * money goes back, their reservations end, and the buyer is told why. When no line is left to
   * deliver, the whole order is refunded instead. Answers whether the order is still to be delivered.
   */
  async refundLines(order: OrderRow, lines: OrderLineRow[], reason: string): Promise<'open' | 'refunded'> {
    const all = await linesOf(this.db, [order.id]);
    const refunding = new Set(lines.map((line) => line.id));
    if (all.every((line) => line.refundedAt || refunding.has(line.id))) {
      const row = await this.refundOrder(order.id, { store: 'delivery', reason });
      return row.status === 'Refunded' ? 'refunded' : 'open';
    }
    // Refunded whole meanwhile (the owner, on any instance): its money went back with it, this part never goes too.
    if ((await findOrder(this.db, order.id))?.status !== 'Paid') return 'refunded';
    const cents = await this.owedBack(lines);
    // One part per set of lines: asked again after a crash, the same part goes back once.
    const part = `lines-${[...refunding].sort().join('-')}`.slice(0, 200);
    await this.provider(order.provider).refund({ id: order.id, amountCents: cents, part, currency: order.currency, providerRef: order.providerRef });
    const done = await this.db.transaction(async (tx) => {
      const current = (await lockOrder(tx, order.id))!;
      if (current.status !== 'Paid' || current.deliveryStatus !== 'Pending') return undefined;
      const marked = await markLinesRefunded(tx, order.id, [...refunding], reason);
      if (marked.length === 0) return { returned: [] as GameStock[] };
      const returned = await this.deps.offers.release(tx, marked);
      await this.mailBuyer(tx, current, marked, marked.reduce((sum, line) => sum + lineCents(line), 0), reason, false);
      return { returned };
    });
    if (!done) return 'refunded';
    this.deps.events.emit('stock-moved', { games: done.returned });
    this.deps.log.warn({ orderId: order.id, lines: [...refunding], amountCents: cents, reason }, 'order lines refunded');
    this.deps.mailer.flush();
    return 'open';
  }

  /**
   * Gives back one key's price after a claim (issue 24): the provider first (keyed by the claim, so a
   * repeat returns it once), then in one transaction the ledger's claim entry (from the key's seller),
   * the key voided, the caller's own writes (`also`: the claim's state), and the buyer's mail. Answers the cents.
   */
  async refundClaimedKey(claim: { id: string; orderId: string; lineId: string; keyId: string }, reason: string, also: (tx: Db) => Promise<void>): Promise<number> {
    const order = await findOrder(this.db, claim.orderId);
    const line = order && (await linesOf(this.db, [order.id])).find((candidate) => candidate.id === claim.lineId);
    if (!order || !line) throw new NotFound(orderMessages.orderNotFound);
    // The order or the line was refunded whole meanwhile, or the key is gone: its money is back already.
    if (order.status !== 'Paid' || line.refundedAt || !(await this.deps.library.keyIsLive(this.db, claim.keyId))) throw new KeyAlreadyRefunded();
    const cents = line.unitPriceCents;
    await this.provider(order.provider).refund({ id: order.id, amountCents: cents, part: `claim-${claim.id}`, currency: order.currency, providerRef: order.providerRef });
    // The commission of one key: a seller's was fixed at placement; the house's is its margin over the supplier's price.
    const commissionCents = line.commissionCents ?? line.unitPriceCents - line.supplierPriceCents;
    await this.db.transaction(async (tx) => {
      const current = (await lockOrder(tx, order.id))!;
      if (current.status !== 'Paid') throw new KeyAlreadyRefunded();
      if (!(await this.deps.library.voidKey(tx, claim.keyId, `refunded after claim ${claim.id}`))) throw new KeyAlreadyRefunded();
      await this.deps.ledger.postClaimRefund(tx, { claimId: claim.id, orderId: order.id, lineId: line.id, sellerId: line.sellerId, priceCents: cents, commissionCents });
      await also(tx);
      await this.mailBuyer(tx, order, [{ ...line, quantity: 1 }], cents, reason, false);
    });
    this.deps.mailer.flush();
    return cents;
  }

  /**
   * What going back of these lines is owed to their buyer: for a delivered line, what the ledger still
   * holds of its sale (keys refunded one by one after claims are not refunded again); for one never
   * delivered, which moved no money in the ledger, what was paid for it.
   */
  private async owedBack(lines: OrderLineRow[]): Promise<number> {
    const posted = await this.deps.ledger.salePricesLeft(this.db, lines.map((line) => line.id));
    return lines.reduce((sum, line) => sum + (posted.get(line.id) ?? lineCents(line)), 0);
  }

  private async refundableOrder(orderId: string, by: RefundBy): Promise<OrderRow> {
    const order = await findOrder(this.db, orderId);
    if (!order) throw new NotFound(orderMessages.orderNotFound);
    if (order.status !== 'Refunded') assertRefundable(order, by);
    return order;
  }

  private async mailBuyer(tx: Db, order: OrderRow, lines: OrderLineRow[], cents: number, reason: string, whole: boolean): Promise<void> {
    const buyer: Recipient | undefined = await this.deps.links.recipient(order, await buyerOf(tx, order));
    if (buyer) await this.deps.mailer.enqueue(tx, refundMail(this.deps.mailContext, buyer, order, lines, { cents, reason, whole }));
  }
}

/** A claimed key whose money went back with its order or line (or which is no longer live): nothing to refund. */
export class KeyAlreadyRefunded extends Error {}

/** Throws the reason a refund is refused, if there is one (the store's own refunds have no 30-day window). */
function assertRefundable(order: OrderRow, by: RefundBy): void {
  if (order.status !== 'Paid') throw new Conflict(adminMessages.refundNotAllowed);
  if ('admin' in by && order.paidAt && Date.now() - order.paidAt.getTime() > REFUND_WINDOW_DAYS * 24 * 3600_000) throw new Conflict(orderMessages.refundTooLate);
}
