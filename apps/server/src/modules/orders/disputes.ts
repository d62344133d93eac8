// After the sale (issue 29): a card holder's dispute, its close, and an issuer's early fraud warning.
// A dispute is not a refund: the card network has already taken the money, so nothing goes back through
// the provider. In one transaction the order's unrevealed keys are taken back (a seller's goes back on
// sale through the offers module, its seller told, and the house's on its shelf; a revealed key stays with its buyer and is never sold
// again), the ledger posts the chargeback and the network's fee, the order becomes Disputed, and the risk
// desk notes the fraud and blocks the buyer's e-mail, card, address and browser; once committed, the
// buyer's account is blocked (and its seller account suspended) by whoever listens. Every step is safe to
// repeat: a dispute reported twice changes nothing more.
import { HOUSE_SELLER_ID, orderMessages, riskMessages } from '@keystore/contract';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../../db/client.ts';
import { NotFound } from '../../platform/errors.ts';
import type { GameStock, StoreEventBus } from '../../platform/events.ts';
import type { Ledger } from '../ledger/ports.ts';
import type { LibraryService } from '../library/ports.ts';
import type { OffersService } from '../offers/ports.ts';
import type { RiskService } from '../risk/ports.ts';
import type { OrderRefunds } from './refunds.ts';
import { findOrder, linesOf, lockOrder, type OrderLineRow } from './store.ts';
import { transition } from './transitions.ts';
import { currentRequestId } from '../../platform/request-context.ts';

export interface OrderDisputesDeps {
  database: Database;
  library: LibraryService;
  ledger: Ledger;
  offers: OffersService;
  risk: Pick<RiskService, 'fraudProved' | 'noteOutcome'>;
  refunds: OrderRefunds;
  events: StoreEventBus;
  log: FastifyBaseLogger;
}

/** What a provider tells of a dispute. */
export interface DisputeReport {
  /** The provider's name for it, for the log. */
  reference: string;
  /** The network's fee, in cents. */
  feeCents: number;
}

export class OrderDisputes {
  private readonly deps: OrderDisputesDeps;

  constructor(deps: OrderDisputesDeps) {
    this.deps = deps;
  }

  private get db() {
    return this.deps.database.db;
  }

  /**
   * The card network took a paid order's money back. Answers whether the order became Disputed now
   * (false for a repeat, or an order not paid: a refunded one's dispute is only noted).
   */
  async opened(orderId: string, report: DisputeReport, actor: `provider:${string}`): Promise<boolean> {
    const order = await findOrder(this.db, orderId);
    if (!order) throw new NotFound(orderMessages.orderNotFound);
    const lines = await linesOf(this.db, [orderId]);
    const done = await this.db.transaction(async (tx) => {
      const current = (await lockOrder(tx, orderId))!;
      if (current.status !== 'Paid') {
        if (current.status === 'Refunded' || current.status === 'Disputed') await this.deps.risk.fraudProved(tx, orderId, 'dispute', `dispute of order ${orderId}`);
        return undefined;
      }
      const taken = await this.takeBack(tx, orderId, lines, current.deliveryStatus !== 'Delivered');
      await this.postChargeback(tx, orderId, lines, taken.unseen, report.feeCents);
      await transition(tx, { id: orderId }, {
        status: { from: ['Paid'], to: 'Disputed' },
        ...(current.deliveryStatus !== 'Delivered' && { delivery: { from: [current.deliveryStatus], to: 'Not delivered' as const } }),
        actor,
        reason: riskMessages.disputeOpened,
        set: { nextAllocationAt: null },
      });
      await this.deps.risk.fraudProved(tx, orderId, 'dispute', `dispute of order ${orderId}`);
      return { ...taken, userId: current.userId };
    });
    if (!done) return false;
    this.deps.events.emit('stock-moved', { games: done.stock });
    this.deps.events.emit('order-disputed', { orderId, userId: done.userId });
    this.deps.events.emit('fraud-proved', { orderId, userId: done.userId });
    await done.tell();
    this.deps.log.warn({ orderId, dispute: report.reference, keysBack: done.unseen.size }, 'payment disputed: unrevealed keys taken back, buyer blocked');
    return true;
  }

  /** A dispute closed: won, the network gives back the money and the fee (once); lost, the chargeback stands. Both are in the timeline. */
  async closed(orderId: string, won: boolean, actor: `provider:${string}`): Promise<void> {
    await this.db.transaction(async (tx) => {
      const current = await lockOrder(tx, orderId);
      if (current?.status !== 'Disputed') return;
      if (won) {
        const cents = await this.deps.ledger.disputedCents(tx, orderId);
        if (!(await this.deps.ledger.postDisputeWon(tx, { orderId, amountCents: cents }))) return;
      }
      await tx.execute(sql`insert into order_events (order_id, kind, from_status, to_status, actor, reason, request_id)
        values (${orderId}, 'action', null, ${won ? 'Dispute won' : 'Dispute lost'}, ${actor}, ${won ? 'The card network gave the money and its fee back.' : 'The chargeback stands.'}, ${currentRequestId() ?? null})`);
    });
  }

  /**
   * An issuer warned that a paid order's payment was fraudulent: when it still has keys nobody revealed (or keys still to come),
   * it is refunded as fraudulent through the provider (every key voided, a seller's unrevealed ones back
   * on sale), so no dispute follows; either way the fraud is noted and the buyer blocked.
   */
  async fraudWarning(orderId: string): Promise<void> {
    const order = await findOrder(this.db, orderId);
    if (!order) throw new NotFound(orderMessages.orderNotFound);
    const keys = await this.deps.library.listOrderKeys(orderId);
    // Keys still to come count as unrevealed: none of them need go out.
    const unrevealed = order.deliveryStatus !== 'Delivered' || keys.some((key) => !key.revealed);
    if (order.status === 'Paid' && unrevealed) {
      await this.deps.refunds.refundOrder(orderId, { store: 'fraud-warning', reason: riskMessages.fraudWarningRefund });
    }
    const refunded = (await findOrder(this.db, orderId))?.status === 'Refunded';
    await this.db.transaction(async (tx) => {
      await this.deps.risk.fraudProved(tx, orderId, 'early-fraud-warning', `fraud warning on order ${orderId}`);
      if (refunded && unrevealed) await this.deps.risk.noteOutcome(tx, orderId, 'fraud-refund');
    });
    this.deps.events.emit('fraud-proved', { orderId, userId: order.userId });
  }

  /**
   * Voids the order's keys nobody revealed and puts a seller's back on sale and the house's on its
   * shelf; an order still waiting for
   * keys gives back its reservations. Answers the stock moved, the keys that came back (`<line> <hash>`),
   * and the sellers' telling, for after the commit.
   */
  private async takeBack(tx: Db, orderId: string, lines: OrderLineRow[], undelivered: boolean) {
    const { library, offers } = this.deps;
    const voided = await library.voidUnrevealedKeysOfOrder(tx, orderId, 'disputed');
    const unseen = new Set(voided.map((key) => `${key.lineId} ${key.serialHash}`));
    let stock: GameStock[] = [];
    if (undelivered) {
      const held = await library.keysPerLine(tx, orderId);
      const open = lines.filter((line) => !line.refundedAt);
      await offers.keepBoughtHouseKeys(tx, open.map((line) => ({ ...line, quantity: held.get(line.id) ?? 0 })));
      stock = await offers.release(tx, open.map((line) => ({ ...line, quantity: line.quantity - (held.get(line.id) ?? 0) })));
    }
    const returned = await offers.returnDisputed(tx, orderId, lines, voided);
    return { stock: [...stock, ...returned.stock], unseen, tell: returned.tell };
  }

  /**
   * The chargeback in the ledger: of what its sales took in, each seller line's keys that came back
   * reverse their share of the sale; the rest (revealed keys, the house's keys, which its shelf sells
   * again at their full price) is the store's fraud loss; the fee is the store's.
   */
  private async postChargeback(tx: Db, orderId: string, lines: OrderLineRow[], unseen: Set<string>, feeCents: number): Promise<void> {
    const taken = await this.deps.ledger.salePricesLeft(tx, lines.map((line) => line.id));
    const back = new Map<string, number>();
    for (const key of unseen) {
      const lineId = key.split(' ')[0]!;
      back.set(lineId, (back.get(lineId) ?? 0) + 1);
    }
    const returned = lines.flatMap((line) => {
      const keys = line.sellerId === HOUSE_SELLER_ID ? 0 : (back.get(line.id) ?? 0);
      if (keys === 0 || !taken.has(line.id)) return [];
      const unitCommission = line.commissionCents ?? 0;
      return [{ lineId: line.id, sellerId: line.sellerId, priceCents: line.unitPriceCents * keys, commissionCents: unitCommission * keys }];
    });
    const total = [...taken.values()].reduce((sum, cents) => sum + cents, 0);
    const keptCents = total - returned.reduce((sum, line) => sum + line.priceCents, 0);
    await this.deps.ledger.postChargeback(tx, { orderId, returned, keptCents, feeCents });
  }
}
