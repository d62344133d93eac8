import type { FastifyBaseLogger } from 'fastify';
import {
  MAX_UNPAID_ORDERS,
  ORDER_CURRENCY,
  ORDER_LINE_MAX_QUANTITY,
  ORDER_TTL_MINUTES,
  orderMessages,
  type CreateOrderRequest,
  type Order,
  type PaymentProviderName,
} from '@keystore/contract';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { Conflict, HttpError, Invalid, NotFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Mailer } from '../../platform/mailer.ts';
import type { Supplier } from '../catalog/supplier/supplier.ts';
import type { LibraryService } from '../library/service.ts';
import type { PaymentOutcome, PaymentOutcomes, PaymentProvider, PaymentReport } from '../payments/provider.ts';
import type { PurchaseStats, PurchaseSummary, UsersService } from '../users/service.ts';
import { KeyAllocator } from './allocation.ts';
import type { OrderEvents } from './events.ts';
import { PaymentStates } from './payment-states.ts';
import {
  expireDueOrders,
  findOrder,
  insertOrder,
  linesOf,
  ordersOfUser,
  reserveStock,
  totalPaidCents,
  unpaidOrderCount,
  type OrderLineRow,
  type OrderRow,
} from './store.ts';
import { lineImage, toHistoryEntry, toOrder } from './views.ts';

const EXPIRY_BATCH = 200;

export interface OrdersDeps {
  database: Database;
  config: Config;
  library: LibraryService;
  users: UsersService;
  mailer: Mailer;
  supplier: Supplier;
  log: FastifyBaseLogger;
  /** Told when an order is paid, delivered or declined (the app wires notifications here). */
  events?: OrderEvents | undefined;
}

/**
 * Orders from cart to keys (issue 5, decision 008): placing an order reserves its stock, a payment
 * provider reports the outcome through markPaid / markDeclined / markExpired (payment-states.ts),
 * and a paid order's keys come from the supplier through the KeyAllocator. Also the profile's
 * purchase figures.
 */
export class OrdersService implements PaymentOutcomes, PurchaseStats {
  readonly allocator: KeyAllocator;
  private readonly payments: PaymentStates;
  private readonly deps: OrdersDeps;

  constructor(deps: OrdersDeps) {
    this.deps = deps;
    this.allocator = new KeyAllocator({
      database: deps.database,
      supplier: deps.supplier,
      library: deps.library,
      users: deps.users,
      mailer: deps.mailer,
      mailContext: { publicUrl: deps.config.publicUrl, supportEmail: deps.config.mail.supportEmail },
      log: deps.log,
      events: deps.events,
    });
    this.payments = new PaymentStates({
      database: deps.database,
      config: deps.config,
      library: deps.library,
      allocator: this.allocator,
      log: deps.log,
      events: deps.events,
    });
  }

  /** The providers orders can be paid and refunded through; new orders go to the configured one. */
  useProviders(providers: PaymentProvider[]): void {
    this.payments.useProviders(providers);
  }

  private get db() {
    return this.deps.database.db;
  }

  /**
   * Places an order: merges repeated games, prices every line from the catalogue, reserves the
   * stock (409 naming the first game that cannot be covered) and asks the payment provider where to pay.
   */
  async create(userId: string, items: CreateOrderRequest['items']): Promise<{ order: Order; paymentUrl: string }> {
    const merged = mergeItems(items);
    // Each unpaid order holds keys for 30 minutes: one customer must not be able to hold the shelf.
    // A soft cap (two racing requests may both pass), which is all it needs to be.
    if ((await unpaidOrderCount(this.db, userId)) >= MAX_UNPAID_ORDERS) throw new Conflict(orderMessages.tooManyUnpaidOrders);
    const provider = this.payments.provider(this.deps.config.payments.provider);
    const id = newId();
    const now = new Date();
    const { row, lines } = await this.db.transaction(async (tx) => {
      const reserved = await reserveStock(tx, merged);
      const lines: OrderLineRow[] = merged.map((item, position) => {
        const game = reserved.get(item.gameId)!;
        return {
          id: newId(),
          orderId: id,
          position,
          gameId: game.id,
          supplierProductId: game.supplierProductId,
          title: game.title,
          image: game.image,
          platform: game.platform,
          quantity: item.quantity,
          unitPriceCents: game.priceCents,
          supplierPriceCents: game.supplierPriceCents,
        };
      });
      const row: OrderRow = {
        id,
        userId,
        status: 'Awaiting payment',
        deliveryStatus: 'Pending',
        amountCents: lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0),
        currency: ORDER_CURRENCY,
        provider: provider.name,
        providerRef: null,
        declineReason: null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + ORDER_TTL_MINUTES * 60_000),
        paidAt: null,
        deliveredAt: null,
        refundedAt: null,
        supplierOrderId: null,
        allocationLeaseUntil: null,
        allocationAttempts: 0,
        nextAllocationAt: null,
        lastAllocationError: null,
        delayNoticeAt: null,
      };
      await insertOrder(tx, row, lines);
      return { row, lines };
    });
    let paymentUrl: string;
    try {
      // The test gateway has no use for the buyer's e-mail; a real provider sends its receipt there.
      const customer = provider.name === 'test' ? undefined : await this.deps.users.findById(userId);
      paymentUrl = await provider.checkoutUrl({
        id: row.id,
        amountCents: row.amountCents,
        currency: row.currency,
        expiresAt: row.expiresAt,
        customerEmail: customer?.email,
        lines: lines.map((line) => ({ ...line, image: lineImage(line) })),
      });
    } catch (error) {
      // No way to pay: the keys go back on the shelf at once rather than in 30 minutes.
      this.deps.log.error({ err: error, orderId: id, provider: provider.name }, 'could not open the checkout');
      await this.payments.closeUnpaid(id, 'Declined', orderMessages.paymentUnavailable);
      throw new HttpError(503, orderMessages.paymentUnavailable);
    }
    return { order: toOrder(row, lines, new Map()), paymentUrl };
  }

  /** The customer's orders, newest first. */
  async list(userId: string): Promise<Order[]> {
    return this.views(await ordersOfUser(this.db, userId));
  }

  /** One order of its owner; anyone else gets the same NotFound as for an order that does not exist. */
  async get(orderId: string, userId: string): Promise<Order> {
    const [order] = await this.views([await this.ownedOrder(orderId, userId)]);
    return order!;
  }

  /**
   * The order a customer is about to pay: theirs, awaiting payment, within its 30 minutes and meant
   * for `provider`. An order found past its time is expired on the spot (its stock goes back).
   */
  async payableOrder(orderId: string, userId: string, provider: PaymentProviderName): Promise<OrderRow> {
    const row = await this.ownedOrder(orderId, userId);
    if (row.provider !== provider) throw new Conflict(orderMessages.otherProvider);
    assertAwaitingPayment(row);
    return row;
  }

  /**
   * Where the customer goes back to paying an order awaiting payment after leaving its checkout
   * (Stripe's Cancel): the provider's same checkout, through the provider the order was placed with.
   */
  async reopenCheckout(orderId: string, userId: string): Promise<string> {
    const row = await this.ownedOrder(orderId, userId);
    assertAwaitingPayment(row);
    try {
      return await this.payments.provider(row.provider).reopenUrl({ id: row.id, providerRef: row.providerRef });
    } catch (error) {
      if (error instanceof HttpError) throw error;
      this.deps.log.error({ err: error, orderId, provider: row.provider }, 'could not reopen the checkout');
      throw new HttpError(503, orderMessages.paymentUnavailable);
    }
  }

  markPaid(orderId: string, payment?: PaymentReport): Promise<PaymentOutcome> {
    return this.payments.markPaid(orderId, payment);
  }

  markDeclined(orderId: string, reason: string): Promise<void> {
    return this.payments.markDeclined(orderId, reason);
  }

  markExpired(orderId: string): Promise<void> {
    return this.payments.markExpired(orderId);
  }

  setProviderRef(orderId: string, providerRef: string): Promise<void> {
    return this.payments.setProviderRef(orderId, providerRef);
  }

  /** Refunds a paid order (admin), see PaymentStates.refund; answers the order as it is now. */
  async refund(orderId: string): Promise<Order> {
    const [order] = await this.views([await this.payments.refund(orderId)]);
    return order!;
  }

  /** Expires every order whose 30 minutes are over; answers how many (the expiry job). */
  async expireDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const expired = await this.db.transaction((tx) => expireDueOrders(tx, EXPIRY_BATCH));
      total += expired.length;
      if (expired.length < EXPIRY_BATCH) return total;
    }
  }

  /** The profile's figures: money paid and kept, keys delivered and not voided, and the order history. */
  async summaryFor(userId: string): Promise<PurchaseSummary> {
    const [cents, totalGames, orders] = await Promise.all([totalPaidCents(this.db, userId), this.deps.library.liveKeyCount(userId), this.list(userId)]);
    return { totalSpent: cents / 100, totalGames, purchaseHistory: orders.map(toHistoryEntry) };
  }

  private async ownedOrder(orderId: string, userId: string): Promise<OrderRow> {
    let row = await findOrder(this.db, orderId);
    if (!row || row.userId !== userId) throw new NotFound(orderMessages.orderNotFound);
    if (row.status === 'Awaiting payment' && row.expiresAt <= new Date()) {
      await this.markExpired(orderId);
      row = (await findOrder(this.db, orderId))!;
    }
    return row;
  }

  private async views(rows: OrderRow[]): Promise<Order[]> {
    const ids = rows.map((row) => row.id);
    const [lines, keys] = await Promise.all([linesOf(this.db, ids), this.deps.library.liveKeysPerLine(ids)]);
    const linesByOrder = new Map<string, OrderLineRow[]>();
    for (const line of lines) linesByOrder.set(line.orderId, [...(linesByOrder.get(line.orderId) ?? []), line]);
    return rows.map((row) => toOrder(row, linesByOrder.get(row.id) ?? [], keys));
  }
}

/** Throws why an order cannot be paid any more, if it cannot. */
function assertAwaitingPayment(row: OrderRow): void {
  if (row.status === 'Paid') throw new Conflict(orderMessages.orderAlreadyPaid);
  if (row.status === 'Refunded') throw new Conflict(orderMessages.orderRefunded);
  if (row.status === 'Declined') throw new Conflict(orderMessages.orderDeclined);
  if (row.status === 'Expired') throw new Conflict(orderMessages.orderExpired);
}

/** One line per game (a game listed twice is one line with both quantities), each within the line limit. */
function mergeItems(items: CreateOrderRequest['items']): Array<{ gameId: string; quantity: number }> {
  const merged = new Map<string, number>();
  for (const item of items) merged.set(item.gameId, (merged.get(item.gameId) ?? 0) + item.quantity);
  const lines = [...merged].map(([gameId, quantity]) => ({ gameId, quantity }));
  if (lines.some((line) => line.quantity > ORDER_LINE_MAX_QUANTITY)) throw new Invalid(orderMessages.quantityInvalid);
  return lines;
}
