// Getting the keys of a paid order (decisions 008 and 013). The supplier is called outside any
// transaction (it may take seconds); the keys are then stored, the order marked Delivered, its
// reservations settled and its receipt and notification written in one short transaction. A run
// owns its order through Database.own, an advisory lock that dies with the process, so two runs (the
// paying request, the retry job, another instance) never work on one order at once, and a crashed
// instance's orders are taken over within seconds. Every step is safe to repeat: the supplier order
// is placed with our order id as its external id, and stored keys are unique per line position.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../../db/client.ts';
import type { AdmissionGate } from '../../platform/admission.ts';
import type { MailContext } from '../../platform/mail/layout.ts';
import type { Mailer } from '../../platform/mailer.ts';
import type { StoreEventBus } from '../../platform/events.ts';
import type { DeliveredKey, LibraryService } from '../library/ports.ts';
import { SupplierPriceRefused, type Supplier, type SupplierKey } from '../supplier/ports.ts';
import { centsToEuro, HOUSE_SELLER_ID, UNDELIVERED_REFUND_HOURS } from '@keystore/contract';
import type { Ledger } from '../ledger/ports.ts';
import { deliveryDelayedMail, receiptMail, type Recipient } from '../../platform/mail/order-mails.ts';
import type { OrderRefunds } from './refunds.ts';
import type { OffersService, ReservationRow } from '../offers/ports.ts';
import { moveLine } from './failover.ts';
import type { OrderLinks } from './guests.ts';
import type { GiftsService } from '../gifts/ports.ts';
import {
  takeDelayNotice,
  takeForDelivery,
  commitWithoutWaitingForDisk,
  deliveryOfPaid,
  linesOf,
  lockOrderForDelivery,
  longUndelivered,
  markDelivered,
  markRefundOwed,
  undeliveredOrders,
  updateOrder,
  type OrderToDeliver,
  type OrderLineRow,
  type OrderRow,
} from './store.ts';

/** Retry delays after the n-th failed run, in minutes, doubling up to an hour. */
const retryDelayMinutes = (attempts: number) => Math.min(2 ** Math.max(0, attempts - 1), 60);
const RETRY_BATCH = 50;
/** Times a line may move to the next offer in one run, its sellers failing one after the other. */
const MAX_FAILOVERS = 5;
/** Deliveries one retry run works on at once. */
const RETRY_CONCURRENCY = 8;

/** Ends the wait of allocateWithin (a reason of our own: abort() without one makes a DOMException each time). */
const WAIT_OVER = new Error('the allocation answered');

/** 'refunded': no key could be bought without a loss, and the order's money went back. */
export type AllocationResult = 'delivered' | 'pending' | 'busy' | 'refunded';

export interface AllocatorDeps {
  database: Database;
  supplier: Supplier;
  library: LibraryService;
  ledger: Ledger;
  mailer: Mailer;
  mailContext: MailContext;
  log: FastifyBaseLogger;
  events: StoreEventBus;
  /** Gives back the money of lines the store cannot buy without a loss, and of orders undelivered for a day. */
  refunds: OrderRefunds;
  /** The offers lines' keys come from: a seller's handed over, declared sellers asked after payment, failover (decision 031). */
  offers: OffersService;
  /** A guest's receipt links its order's page (issue 29). */
  links: OrderLinks;
  /** A gift's buyer is told whom its keys went to (issue 29). */
  gifts: Pick<GiftsService, 'recipientLabel'>;
  /** The most the store adds of its own to move a paid line to a dearer offer, percent (FAILOVER_MAX_EXTRA_PERCENT). */
  failoverMaxExtraPercent: number;
  /**
   * The purchase path's bound on database work: a delivery's database steps take a turn (never shed,
   * ahead of new orders); the supplier's seconds in between hold none.
   */
  admission?: AdmissionGate | undefined;
}

export class KeyAllocator {
  private readonly deps: AllocatorDeps;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(deps: AllocatorDeps) {
    this.deps = deps;
  }

  /**
   * Allocates and answers within `waitMs`: 'pending' when the supplier takes longer (the run goes
   * on in the background) or failed (the retry job takes over).
   */
  async allocateWithin(orderId: string, waitMs: number, paid?: OrderRow): Promise<AllocationResult> {
    const run = this.allocate(orderId, paid);
    const timeout = new AbortController();
    const answer = await Promise.race([run, sleep(waitMs, 'pending' as const, { signal: timeout.signal }).catch(() => 'pending' as const)]);
    timeout.abort(WAIT_OVER);
    return answer;
  }

  /**
   * One allocation run for one order. 'busy': another run holds it, or there is nothing to do. `paid`:
   * the order as its payment's move answered it, so the run does not read it again.
   */
  allocate(orderId: string, paid?: OrderRow): Promise<AllocationResult> {
    const run = this.run(orderId, paid).catch((error: unknown) => {
      this.deps.log.error({ err: error, orderId }, 'key allocation failed unexpectedly');
      return 'pending' as const;
    });
    this.track(run);
    return run;
  }

  /** Runs every undelivered paid order (`dueOnly`: only those whose retry time has come); answers how many got their keys. */
  async retryUndelivered(options: { dueOnly: boolean }): Promise<number> {
    const due = await undeliveredOrders(this.deps.database.db, { dueOnly: options.dueOnly, limit: RETRY_BATCH });
    // A few at a time: with a supplier taking seconds per order, one after another would leave a
    // crashed instance's orders waiting minutes; each run owns its order, so instances never collide.
    let delivered = 0;
    let next = 0;
    const worker = async () => {
      while (next < due.length) {
        if ((await this.allocate(due[next++]!)) === 'delivered') delivered += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.min(RETRY_CONCURRENCY, due.length) }, worker));
    return delivered;
  }

  /**
   * Refunds the paid orders still without their keys a day after payment, and tells their buyers
   * (any instance may run it: each order is owned while it is refunded, as a delivery is). Answers how many.
   */
  async refundLongUndelivered(): Promise<number> {
    const { database, refunds, log } = this.deps;
    let refunded = 0;
    for (const orderId of await longUndelivered(database.db, UNDELIVERED_REFUND_HOURS, RETRY_BATCH)) {
      const release = await database.own(`order-delivery:${orderId}`);
      if (!release) continue;
      try {
        const row = await refunds.refundOrder(orderId, {
          store: 'delivery',
          reason: `Our supplier did not hand over your keys within ${UNDELIVERED_REFUND_HOURS} hours of your payment, so we have given your money back rather than keep you waiting.`,
        });
        if (row.status === 'Refunded') refunded += 1;
      } catch (error) {
        log.error({ err: error, orderId }, 'refund of an order undelivered for a day failed; the next run retries');
      } finally {
        void release();
      }
    }
    return refunded;
  }

  /** Waits for the runs and receipt mails under way (shutdown, and tests before they read the outbox). */
  async drain(): Promise<void> {
    // A run that ends adds its receipt mail, so wait until nothing is left.
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async run(orderId: string, paid?: OrderRow): Promise<AllocationResult> {
    const release = await this.deps.database.own(`order-delivery:${orderId}`);
    if (!release) return 'busy';
    try {
      return await this.runOwned(orderId, paid);
    } finally {
      // Not waited for: the answer need not wait a round trip for the lock to go (release reports its own errors).
      void release();
    }
  }

  private async runOwned(orderId: string, paid?: OrderRow): Promise<AllocationResult> {
    const { database, supplier, library, log, mailer } = this.deps;
    // Just paid: the payment's move answered the order (and counted this run); a retry takes it afresh.
    // Delivered meanwhile by another run, it is found so at markDelivered, which moves nothing twice.
    const toDeliver = await this.withTurn(() => (paid ? deliveryOfPaid(database.db, paid) : takeForDelivery(database.db, orderId)));
    if (!toDeliver) return 'busy';
    const { order } = toDeliver;
    let { lines } = toDeliver;
    const recipient: Recipient | undefined = await this.deps.links.recipient(order, toDeliver.buyer);
    // Declared-stock sellers hand over their keys first; a line whose seller fails moves to the next offer, or is refunded.
    const provided = await this.provideDeclared(order, lines);
    if (provided === 'refunded') return 'refunded';
    lines = provided;

    // The house's lines take the keys on its shelf first (keys that came back unrevealed, issue 29) and
    // buy the rest from the supplier; a seller's keys were reserved when the order was placed.
    const sellerLines = lines.filter((line) => line.sellerId !== HOUSE_SELLER_ID);
    let houseLines = lines.filter((line) => line.sellerId === HOUSE_SELLER_ID);
    const shelfKeys = await this.withTurn(() => this.deps.offers.takeFromShelf(houseLines, order.supplierOrderId === null, paid !== undefined));
    const fromShelf = countByLine(shelfKeys);
    const toBuy = (line: OrderLineRow) => line.quantity - (fromShelf.get(line.id) ?? 0);
    const shelfOnly = houseLines.filter((line) => toBuy(line) <= 0);
    houseLines = houseLines.filter((line) => toBuy(line) > 0);
    let supplierOrderId: string | null = order.supplierOrderId;
    let supplierKeys: SupplierKey[] = [];
    // The supplier sells at its price of the moment: the catalogue's latest (an order is bought at
    // its supplier price when it is paid, not when it was placed), or, when the supplier refuses that,
    // the price it gives when asked. Once a supplier order exists its price is settled.
    const prices = new Map(lines.map((line) => [line.id, order.supplierOrderId ? line.supplierPriceCents : (toDeliver.supplierPrices.get(line.gameId) ?? line.supplierPriceCents)]));
    for (let asked = false; houseLines.length > 0; asked = true) {
      try {
        houseLines = await this.refundAboveWhatWasPaid(toDeliver, houseLines, prices);
      } catch (error) {
        await this.postpone(order, lines, `The refund of lines priced above what was paid failed: ${error instanceof Error ? error.message : String(error)}`, recipient);
        return 'pending';
      }
      if (houseLines.length === 0 && shelfOnly.length === 0 && sellerLines.length === 0) return 'refunded';
      if (houseLines.length === 0) break;
      try {
        // Placed on every run: the supplier answers a known external id with the order it already has.
        supplierOrderId = (
          await supplier.placeOrder(
            order.id,
            houseLines.map((line) => ({ productId: line.supplierProductId, quantity: toBuy(line), priceCents: prices.get(line.id)! })),
          )
        ).orderId;
        supplierKeys = await supplier.orderKeys(supplierOrderId);
        break;
      } catch (error) {
        if (error instanceof SupplierPriceRefused && !asked) {
          const current = await supplier.currentPrices(houseLines.map((line) => line.supplierProductId)).catch(() => new Map<string, number>());
          for (const line of houseLines) prices.set(line.id, current.get(line.supplierProductId) ?? prices.get(line.id)!);
          if (current.size > 0) continue;
        }
        await this.postpone(order, lines, error instanceof Error ? error.message : String(error), recipient);
        return 'pending';
      }
    }
    houseLines = [...shelfOnly, ...houseLines];
    lines = [...houseLines, ...sellerLines].sort((a, b) => a.position - b.position);

    const houseKeys = [...this.sealedKeysForLines(order, houseLines, shelfKeys), ...keysForLines(order, houseLines, supplierKeys, fromShelf)];
    // Read before the delivery's transaction, which holds the only connection of the embedded database.
    const giftTo = order.gift ? await this.deps.gifts.recipientLabel(order.id) : undefined;
    const wanted = lines.reduce((sum, line) => sum + line.quantity, 0);
    let delivered = houseKeys.length;
    const stored = await this.withTurn(() => database.db
      .transaction(async (tx) => {
        // Committed without waiting for the disk: lost in a crash, the order is simply still
        // undelivered, and the next run gets the same keys from the same supplier order (and a
        // seller's keys are still reserved by their lines).
        await commitWithoutWaitingForDisk(tx);
        const handed = await this.deps.offers.handOver(tx, sellerLines.map((line) => line.id));
        const keys = [...houseKeys, ...this.sealedKeysForLines(order, sellerLines, handed)];
        const sources = { house: houseKeys.length, uploaded: handed.filter((key) => key.delivery === 'uploaded').length, declared: handed.filter((key) => key.delivery === 'declared').length };
        delivered = keys.length;
        const written = await library.storeKeys(tx, keys);
        if (shelfKeys.length > 0) await this.deps.offers.shelfKeysStored(tx, [...fromShelf.keys()]);
        // A first run writes every key; only a later one (some keys stored before) needs to count.
        if (written < wanted) {
          const held = await library.keysPerLine(tx, order.id);
          if (!lines.every((line) => (held.get(line.id) ?? 0) >= line.quantity)) {
            // The keys that did come are kept for the next run, unless the order was refunded meanwhile.
            const current = await lockOrderForDelivery(tx, order.id);
            if (current?.status !== 'Paid') throw new OrderGone();
            return 'short' as const;
          }
        }
        // Refunded while the supplier was asked: the keys just written are rolled back, never handed out.
        if (!(await markDelivered(tx, order.id, supplierOrderId))) throw new OrderGone();
        await this.deps.offers.settleDelivered(tx, lines, fromShelf);
        await this.postSales(tx, order, lines, prices, fromShelf);
        // The receipt and the notification are committed with the keys (an outbox), never after them from memory.
        if (recipient) await mailer.enqueue(tx, receiptMail(this.deps.mailContext, recipient, order, lines, { demo: keys.some((key) => key.demo), giftTo }));
        await this.deps.events.publish('order-delivered', { tx, orderId: order.id, userId: order.userId, keyCount: wanted, gift: order.gift, sources });
        return 'delivered' as const;
      })
      .catch((error: unknown) => {
        if (error instanceof OrderGone) return 'gone' as const;
        throw error;
      }));
    if (stored === 'gone') return 'busy';
    if (stored === 'short') {
      log.warn({ orderId, wanted, received: delivered }, 'the supplier has not handed over every key (or handed over a key sold before)');
      await this.postpone({ ...order, supplierOrderId }, lines, `The supplier handed over ${delivered} usable keys of ${wanted}`, recipient);
      return 'pending';
    }
    mailer.flush();
    return 'delivered';
  }

  /**
   * Has each declared-stock seller of the order hand over its keys (issue 24), all at once. A seller
   * that fails (after its attempts, or at once for a wrong count or a known key) loses the line: in one
   * transaction its reservation fails (a cancel goes out, a fee is posted, its breaker counts) and the
   * line moves to the next offer with the stock, at what the buyer paid plus at most
   * FAILOVER_MAX_EXTRA_PERCENT of the store's own, or, with none, the line is marked owed its refund,
   * which is given next (a crash in between leaves the mark, and the next run gives it). Never the whole
   * order for one seller. Answers the order's lines still to deliver, or 'refunded' when nothing is left of it.
   */
  private async provideDeclared(order: OrderRow, lines: OrderLineRow[]): Promise<OrderLineRow[] | 'refunded'> {
    const { offers, database, log } = this.deps;
    if (lines.every((line) => line.sellerId === HOUSE_SELLER_ID)) return lines;
    let current = lines;
    for (let round = 0; round < MAX_FAILOVERS; round += 1) {
      const open = await this.withTurn(() => offers.openReservations(current.map((line) => line.id)));
      const waiting = open.filter((reservation) => reservation.state !== 'provided');
      const owed = current.filter((line) => line.refundOwedAt);
      if (waiting.length === 0 && owed.length === 0) return current;
      const outcomes = await Promise.all(waiting.map(async (reservation) => ({ reservation, outcome: await offers.provide(reservation.id) })));
      for (const { reservation, outcome } of outcomes) {
        if (outcome.ok || outcome.gone) continue;
        const line = current.find((candidate) => candidate.id === reservation.lineId)!;
        log.warn({ orderId: order.id, lineId: line.id, offerId: reservation.offerId, reason: outcome.reason }, 'a seller failed to hand over keys; failing over');
        const step = await this.failOver(order, line, reservation, outcome.reason);
        if (step === 'gone') return 'refunded';
        if (step === 'owed') owed.push(line);
      }
      for (const line of owed) {
        if ((await this.refundOwed(order, line)) === 'refunded') return 'refunded';
      }
      current = (await this.withTurn(() => linesOf(database.db, [order.id]))).filter((line) => !line.refundedAt);
      if (current.length === 0) return 'refunded';
    }
    return current;
  }

  /**
   * One seller's failure, in one transaction: its reservation fails and its line moves to the next offer
   * at what the buyer paid plus at most FAILOVER_MAX_EXTRA_PERCENT of the store's own, or is marked owed
   * its refund. 'gone': the order is no longer paid (refunded meanwhile, on any instance); 'settled':
   * another run failed the reservation first.
   */
  private async failOver(order: OrderRow, line: OrderLineRow, reservation: ReservationRow, reason: string): Promise<'moved' | 'owed' | 'gone' | 'settled'> {
    const { database, offers, log } = this.deps;
    const maxUnitCents = Math.floor((line.unitPriceCents * (100 + this.deps.failoverMaxExtraPercent)) / 100);
    const step = await this.withTurn(() =>
      database.db.transaction(async (tx) => {
        // The order first, as every delivery takes it; refunded meanwhile, nothing is moved, no stock taken.
        const current = await lockOrderForDelivery(tx, order.id);
        if (current?.status !== 'Paid') return { kind: 'gone' as const };
        const failure = await offers.failReservation(tx, reservation, reason, (line.commissionCents ?? 0) * line.quantity);
        if (!failure) return { kind: 'settled' as const };
        const fresh = (await linesOf(tx, [order.id])).find((candidate) => candidate.id === line.id)!;
        const moved = await moveLine(offers, tx, fresh, maxUnitCents);
        if (!moved.moved) await markRefundOwed(tx, line.id);
        return { kind: moved.moved ? ('moved' as const) : ('owed' as const), failure, to: moved.moved ? moved.offer.offerId : undefined };
      }),
    );
    if ('failure' in step) await step.failure?.announce();
    if (step.kind === 'moved') log.info({ orderId: order.id, lineId: line.id, to: step.to }, 'line moved to the next offer');
    return step.kind;
  }

  /** Gives back the money of a line its failover found no offer for (marked owed in the failure's transaction). */
  private refundOwed(order: OrderRow, line: OrderLineRow): Promise<'open' | 'refunded'> {
    return this.deps.refunds.refundLines(
      order,
      [line],
      `The seller of ${line.title} could not hand over your key${line.quantity === 1 ? '' : 's'}, and no other offer could replace ${line.quantity === 1 ? 'it' : 'them'} at the price you paid, so your money for ${line.quantity === 1 ? 'it' : 'them'} goes back in full. The rest of your order is not affected.`,
    );
  }

  /**
   * Gives back the money of the lines whose supplier price rose above what the buyer paid for them
   * (the store may give up its markup, never be made to sell at a loss by a rise); answers the lines
   * left to buy, none when the whole order was refunded. A price the owner set below the supplier's
   * (the back office's override) was a loss chosen when the order was placed: up to that supplier
   * price, the keys are still bought.
   */
  private async refundAboveWhatWasPaid(toDeliver: OrderToDeliver, lines: OrderLineRow[], prices: Map<string, number>): Promise<OrderLineRow[]> {
    const above = lines.filter((line) => prices.get(line.id)! > Math.max(line.unitPriceCents, line.supplierPriceCents));
    if (above.length === 0) return lines;
    const names = above.map((line) => `${line.title} (now €${centsToEuro(prices.get(line.id)!).toFixed(2)} at our supplier, you paid €${centsToEuro(line.unitPriceCents).toFixed(2)})`);
    const reason = `Our supplier's price rose after you ordered, above what you paid: ${names.join('; ')}. We do not charge you more, so your money for ${above.length === 1 ? 'it' : 'them'} goes back in full.`;
    const left = await this.deps.refunds.refundLines(toDeliver.order, above, reason);
    if (left === 'refunded') return [];
    const refunded = new Set(above.map((line) => line.id));
    return lines.filter((line) => !refunded.has(line.id));
  }

  /** The reserved keys of a seller's lines, marked sold, as the library stores them (numbered per line). */
  /**
   * Posts each delivered line's sale to the ledger with the delivery: the price to its seller's held
   * balance, less the commission. A seller's commission was fixed when the order was placed; the
   * house's is what the buyer paid above the supplier's price the keys were bought at (a key from its
   * shelf was paid for before: the house keeps all of its price).
   */
  private async postSales(tx: Db, order: OrderRow, lines: OrderLineRow[], prices: Map<string, number>, fromShelf: ReadonlyMap<string, number>): Promise<void> {
    for (const line of lines) {
      const priceCents = line.unitPriceCents * line.quantity;
      const commissionCents = line.commissionCents !== null ? line.commissionCents * line.quantity : priceCents - prices.get(line.id)! * (line.quantity - (fromShelf.get(line.id) ?? 0));
      await this.deps.ledger.postSale(tx, { orderId: order.id, lineId: line.id, sellerId: line.sellerId, priceCents, commissionCents });
    }
  }

  /**
   * Keys sealed for their rows (a seller's sold keys, the house's shelf keys), as the library stores
   * them: numbered per line from its first position.
   */
  private sealedKeysForLines(order: OrderRow, lines: OrderLineRow[], keys: Array<{ id: string; lineId: string; serialEncrypted: string }>): DeliveredKey[] {
    const byLine = new Map(lines.map((line) => [line.id, line]));
    const positions = new Map<string, number>();
    return [...keys]
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .flatMap((key) => {
        const line = byLine.get(key.lineId);
        if (!line) return [];
        const position = positions.get(line.id) ?? 0;
        positions.set(line.id, position + 1);
        return [{ orderId: order.id, lineId: line.id, position, gameId: line.gameId, userId: keyHolder(order), serial: this.deps.library.unseal(key.serialEncrypted, key.id), demo: false }];
      });
  }

  /** Runs database work holding a purchase turn (when the app has a gate). */
  private async withTurn<T>(work: () => Promise<T>): Promise<T> {
    const turn = await this.deps.admission?.enter(true);
    try {
      return await work();
    } finally {
      turn?.leave();
    }
  }

  private track(work: Promise<unknown>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  /** Frees the order for the retry job, later; tells the customer once that delivery is delayed. */
  private async postpone(order: OrderRow, lines: OrderLineRow[], reason: string, buyer: Recipient | undefined): Promise<void> {
    const { database, log, mailer } = this.deps;
    const minutes = retryDelayMinutes(order.allocationAttempts);
    log.warn({ orderId: order.id, attempts: order.allocationAttempts, retryInMinutes: minutes, reason }, 'keys not delivered yet');
    // The delay notice is marked sent and written to the outbox together: it goes once, and surely.
    await this.withTurn(() => database.db.transaction(async (tx) => {
      await updateOrder(tx, order.id, {
        supplierOrderId: order.supplierOrderId,
        nextAllocationAt: new Date(Date.now() + minutes * 60_000),
        lastAllocationError: reason.slice(0, 500),
      });
      if (buyer && (await takeDelayNotice(tx, order.id))) await mailer.enqueue(tx, deliveryDelayedMail(this.deps.mailContext, buyer, order, lines));
    }));
    mailer.flush();
  }
}

/** Whose library a delivered key goes to: the buyer's, but a gift's keys are its recipient's (given by the gifts module, issue 29). */
const keyHolder = (order: OrderRow) => (order.gift ? null : order.userId);

/** Thrown to roll a delivery back: the order stopped being a paid, undelivered one meanwhile. */
class OrderGone extends Error {}

/** The supplier's keys matched to our lines by product, at most `quantity` per line, numbered per line. */
/** The supplier's keys of the house's lines, after the positions their shelf keys (`fromShelf`, per line) take. */
function keysForLines(order: OrderRow, lines: OrderLineRow[], supplierKeys: SupplierKey[], fromShelf: ReadonlyMap<string, number>): Array<DeliveredKey & { serial: string }> {
  const byProduct = new Map<string, SupplierKey[]>();
  for (const key of supplierKeys) {
    if (!key.serial.trim()) continue;
    byProduct.set(key.productId, [...(byProduct.get(key.productId) ?? []), key]);
  }
  return lines.flatMap((line) =>
    (byProduct.get(line.supplierProductId) ?? []).slice(0, line.quantity - (fromShelf.get(line.id) ?? 0)).map((key, position) => ({
      orderId: order.id,
      lineId: line.id,
      position: position + (fromShelf.get(line.id) ?? 0),
      gameId: line.gameId,
      userId: keyHolder(order),
      serial: key.serial,
      demo: key.demo,
    })),
  );
}

/** Keys per line. */
function countByLine(keys: Array<{ lineId: string }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key.lineId, (counts.get(key.lineId) ?? 0) + 1);
  return counts;
}
