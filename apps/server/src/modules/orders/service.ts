import type { FastifyBaseLogger } from 'fastify';
import { giftMessages, orderMessages, type AdminSettings, type AdminSettingsPatch, type CreateOrderAnswer, type CreateOrderRequest, type Order, type PaymentProviderName, type RiskVerdict } from '@keystore/contract';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { Conflict, Forbidden, NotFound } from '../../platform/errors.ts';
import type { Mailer } from '../../platform/mailer.ts';
import type { AdmissionGate } from '../../platform/admission.ts';
import type { StoreEventBus } from '../../platform/events.ts';
import type { LibraryService } from '../library/ports.ts';
import type { PaymentOutcome, PaymentOutcomes, PaymentProvider, PaymentReport } from '../payments/ports.ts';
import type { Supplier } from '../supplier/ports.ts';
import type { Accounts, PurchaseStats, PurchaseSummary } from '../users/ports.ts';
import { boughtWith, buyerFigures, keysWaiting, orderFigures, overdueDeliveries, soldOutBestsellers, type OrderFigures } from './admin-store.ts';
import { KeyAllocator } from './allocation.ts';
import { OrderBackOffice } from './back-office.ts';
import { OrderDisputes } from './disputes.ts';
import { assertAwaitingPayment, PaymentStates, type ReviewDecider } from './payment-states.ts';
import { OrderPlacement, type Placer } from './placement.ts';
import { OrderRefunds } from './refunds.ts';
import { adoptGuestOrders, buyerOf, eventsOfOrder, expireDueOrders, findOrder, linesOf, ordersOfUser, totalPaidCents, type OrderEventRow, type OrderLineRow, type OrderRow } from './store.ts';
import { guestLimits, guestSettings, OrderLinks, saveGuestLimits } from './guests.ts';
import type { SignedLinks } from '../../platform/signed-links.ts';
import type { GiftsService } from '../gifts/ports.ts';
import type { Recipient } from '../../platform/mail/order-mails.ts';
import { toHistoryEntry, toOrder } from './views.ts';
import type { Ledger } from '../ledger/ports.ts';
import type { OffersService } from '../offers/ports.ts';
import type { RiskService } from '../risk/ports.ts';

const EXPIRY_BATCH = 200;

export interface OrdersDeps {
  database: Database;
  config: Config;
  library: LibraryService;
  /** Where delivered lines post their sales, and refunds reverse them (issue 23). */
  ledger: Ledger;
  accounts: Accounts;
  mailer: Mailer;
  supplier: Supplier;
  /** The providers orders can be paid and refunded through; new orders go to the configured one. */
  providers: PaymentProvider[];
  log: FastifyBaseLogger;
  /** Where an order's life is told: paid, delivered, declined, cancelled, expired, refunded. */
  events: StoreEventBus;
  /** The purchase path's bound on database work (platform/admission.ts); deliveries take its turns too. */
  admission?: AdmissionGate | undefined;
  /** The offers an order's keys come from: reserved at placement, released, handed over, failed over (decision 031). */
  offers: OffersService;
  /** Signs and checks a guest's order links (issue 29). */
  links: SignedLinks;
  /** Who a gift order is for (issue 29). */
  gifts: Pick<GiftsService, 'create' | 'recipientLabel'>;
  /** The risk desk: told each order's checkout, it assesses each payment and records decisions on held orders (issue 29). */
  risk: RiskService;
}

/**
 * Who opens an order: its signed-in owner, or whoever holds its signed link (a guest, issue 29). An
 * order neither opens is not found, as one that does not exist.
 */
export interface OrderAccess {
  userId?: string | undefined;
  token?: string | undefined;
}

/**
 * Orders from cart to keys (decisions 008 and 019): placing an order reserves its stock
 * (placement.ts), a payment provider reports the outcome through markPaid / markDeclined /
 * markExpired (payment-states.ts), and a paid order's keys come from the supplier through the
 * KeyAllocator. Also the profile's purchase figures.
 */
export class OrdersService implements PaymentOutcomes, PurchaseStats {
  readonly allocator: KeyAllocator;
  /** Money going back: orders, lines, and one key after a claim (issue 24). */
  readonly refunds: OrderRefunds;
  /** The back office's orders: the table, the CSV, one order with its timeline, and the admin's actions. */
  readonly backOffice: OrderBackOffice;
  /** Disputes and fraud warnings after the sale (issue 29). */
  readonly disputes: OrderDisputes;
  private readonly payments: PaymentStates;
  private readonly placement: OrderPlacement;
  private readonly deps: OrdersDeps;
  /** A guest's order token and page. */
  readonly links: OrderLinks;

  constructor(deps: OrdersDeps) {
    this.deps = deps;
    const links = (this.links = new OrderLinks(deps.links, deps.config.publicUrl));
    const mailContext = { publicUrl: deps.config.publicUrl, supportEmail: deps.config.mail.supportEmail };
    const refunds = (this.refunds = new OrderRefunds({
      database: deps.database,
      library: deps.library,
      ledger: deps.ledger,
      providers: deps.providers,
      mailer: deps.mailer,
      mailContext,
      log: deps.log,
      events: deps.events,
      offers: deps.offers,
      links,
    }));
    this.allocator = new KeyAllocator({
      refunds,
      database: deps.database,
      supplier: deps.supplier,
      library: deps.library,
      ledger: deps.ledger,
      mailer: deps.mailer,
      mailContext,
      log: deps.log,
      events: deps.events,
      admission: deps.admission,
      offers: deps.offers,
      links,
      gifts: deps.gifts,
      failoverMaxExtraPercent: deps.config.sellerDelivery.failoverMaxExtraPercent,
    });
    this.payments = new PaymentStates({
      database: deps.database,
      config: deps.config,
      library: deps.library,
      allocator: this.allocator,
      refunds,
      log: deps.log,
      events: deps.events,
      offers: deps.offers,
      risk: deps.risk,
    });
    this.backOffice = new OrderBackOffice({
      database: deps.database,
      library: deps.library,
      accounts: deps.accounts,
      mailer: deps.mailer,
      mailContext,
      payments: this.payments,
      allocator: this.allocator,
      offers: deps.offers,
      links,
      gifts: deps.gifts,
      risk: deps.risk,
    });
    this.disputes = new OrderDisputes({
      database: deps.database,
      library: deps.library,
      ledger: deps.ledger,
      offers: deps.offers,
      risk: deps.risk,
      refunds,
      events: deps.events,
      log: deps.log,
    });
    this.placement = new OrderPlacement({
      database: deps.database,
      config: deps.config,
      accounts: deps.accounts,
      payments: this.payments,
      log: deps.log,
      events: deps.events,
      offers: deps.offers,
      links,
      gifts: deps.gifts,
      risk: deps.risk,
    });
  }

  private get db() {
    return this.deps.database.db;
  }

  /** Hears of accounts proving their e-mail: a guest's orders with it join them (issue 29). */
  subscribeTo(events: StoreEventBus): void {
    events.on('email-proved', async ({ userId, email }) => {
      try {
        const joined = await this.adoptGuestOrders(userId, email);
        if (joined > 0) this.deps.log.info({ userId, orders: joined }, "a guest's orders joined the account that proved its e-mail");
      } catch (error) {
        // Signing in goes on; the next sign-in joins them.
        this.deps.log.error({ err: error, userId }, "could not join a guest's orders to its account");
      }
    });
  }

  /** Places an order, or answers again the one placed with the same Idempotency-Key (placement.ts). */
  create(placer: Placer, items: CreateOrderRequest['items'], idempotencyKey?: string, gift?: { email: string; name: string; message: string }): Promise<CreateOrderAnswer> {
    return this.placement.place(placer, items, idempotencyKey, gift);
  }

  /**
   * The customer closes an order awaiting payment (the pay page's Cancel): its keys go back on the
   * shelf at once rather than when its 30 minutes are over, and its checkout is closed. Idempotent: an
   * order already closed unpaid (cancelled, lapsed, declined) answers as it is; a paid one is a 409.
   */
  async cancel(orderId: string, access: OrderAccess): Promise<Order> {
    const row = await this.ownedOrder(orderId, access);
    if (row.status === 'Awaiting payment') {
      await this.payments.closeUnpaid(orderId, 'Cancelled', null, access.userId ? `customer:${access.userId}` : `guest:${row.email ?? 'link'}`);
      await this.closeCheckout(row);
    }
    // Read again: a payment may have been committed just before the cancel took the order's lock.
    const [order] = await this.views([(await findOrder(this.db, orderId))!]);
    if (order!.status === 'Paid') throw new Conflict(orderMessages.cancelPaidOrder);
    if (order!.status === 'Refunded') throw new Conflict(orderMessages.cancelRefundedOrder);
    return order!;
  }

  private async closeCheckout(row: OrderRow): Promise<void> {
    try {
      await this.payments.provider(row.provider).closeCheckout?.({ id: row.id, providerRef: row.providerRef });
    } catch (error) {
      this.deps.log.warn({ err: error, orderId: row.id, provider: row.provider }, 'could not close the checkout of a cancelled order');
    }
  }

  /** The customer's orders, newest first. */
  async list(userId: string): Promise<Order[]> {
    return this.views(await ordersOfUser(this.db, userId));
  }

  /**
   * One order of its owner, or of the holder of its link, with its keys listed (never revealed here);
   * anyone else gets the same NotFound as for an order that does not exist.
   */
  async get(orderId: string, access: OrderAccess): Promise<Order> {
    const row = await this.ownedOrder(orderId, access);
    // A gift's keys are its recipient's: its buyer's page lists none.
    const [[order], keys, lines] = await Promise.all([this.views([row]), row.gift ? [] : this.deps.library.listOrderKeys(orderId), linesOf(this.db, [orderId])]);
    const titles = new Map(lines.map((line) => [line.id, line.title]));
    return { ...order!, keys: keys.map((key) => ({ purchaseId: key.purchaseId, gameId: key.gameId, title: titles.get(key.lineId) ?? '', revealed: key.revealed })) };
  }

  /**
   * Reveals an order's live keys, or the one `keyId` names, to its owner or the holder of its link
   * (issue 29); each reveal is recorded as a library reveal is.
   */
  async revealKeys(orderId: string, access: OrderAccess, keyId: string | undefined, ip: string): Promise<Array<{ purchaseId: string; gameId: string; title: string; key: string }>> {
    const row = await this.ownedOrder(orderId, access);
    if (row.gift) throw new Forbidden(giftMessages.giftOfOwnKey);
    const [keys, lines] = await Promise.all([this.deps.library.revealOrderKeys(orderId, keyId, { userId: access.userId ?? row.userId, ip }), linesOf(this.db, [orderId])]);
    const titles = new Map(lines.map((line) => [line.id, line.title]));
    return keys.map((key) => ({ purchaseId: key.purchaseId, gameId: key.gameId, title: titles.get(key.lineId) ?? '', key: key.key }));
  }

  /**
   * A guest's orders placed with `email` join the account that proved it (verified at sign-up, or
   * signed in verified): its history, library, figures and tier count them from now on.
   */
  async adoptGuestOrders(userId: string, email: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      const adopted = await adoptGuestOrders(tx, userId, email);
      // A gift's keys stay its recipient's (the gifts module gives them).
      await this.deps.library.adoptKeys(tx, adopted.filter((order) => !order.gift).map((order) => order.id), userId);
      return adopted.length;
    });
  }

  /**
   * The order a customer is about to pay: theirs, awaiting payment, within its 30 minutes and meant
   * for `provider`. An order found past its time is expired on the spot (its stock goes back).
   * payAsCustomer checks the same in SQL (transitions.ts payableBy): a rule added here goes there too.
   */
  async payableOrder(orderId: string, access: OrderAccess, provider: PaymentProviderName): Promise<OrderRow> {
    const row = await this.ownedOrder(orderId, access);
    if (row.provider !== provider) throw new Conflict(orderMessages.otherProvider);
    assertAwaitingPayment(row);
    return row;
  }

  /**
   * Where the customer goes back to paying an order awaiting payment after leaving its checkout
   * (Stripe's Cancel): the provider's same checkout, through the provider the order was placed with.
   */
  async reopenCheckout(orderId: string, access: OrderAccess): Promise<string> {
    const row = await this.ownedOrder(orderId, access);
    assertAwaitingPayment(row);
    return this.placement.checkoutAgain(row);
  }

  /**
   * The customer pays at the store's own card form: their order, meant for `provider`, awaiting
   * payment within its time, is paid in one statement. When it is not such an order, the 404 or 409
   * that payableOrder gives says why.
   */
  async payAsCustomer(orderId: string, access: OrderAccess, provider: PaymentProviderName, payment: Omit<PaymentReport, 'amount'>): Promise<PaymentOutcome> {
    // A link's holder is checked first; the payment's one statement then needs no owner.
    const byLink = await this.opensByLink(orderId, access);
    if (!byLink && access.userId === undefined) throw new NotFound(orderMessages.orderNotFound);
    const outcome = await this.payments.payAwaiting(orderId, { userId: byLink ? undefined : access.userId, provider }, payment);
    if (outcome) return outcome;
    await this.payableOrder(orderId, access, provider);
    // Payable after all: only if payableOrder and the paid transition's check (transitions.ts
    // payableBy) came to disagree, as states only move forward. Paid as any report would be.
    return this.payments.markPaid(orderId, payment);
  }

  /** The owner's decision on an order in review (issue 29): approved (captured, keys out) or cancelled (hold released). 409 when not in review. */
  decideHeld(orderId: string, verdict: RiskVerdict, decider: ReviewDecider): Promise<PaymentOutcome> {
    return this.payments.decideHeld(orderId, verdict, decider);
  }

  /** The review deadline's run (jobs.ts): see PaymentStates.settleReviews. */
  settleReviews(): Promise<number> {
    return this.payments.settleReviews();
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

  async markDisputed(orderId: string, dispute: { reference: string; feeCents: number }): Promise<void> {
    const order = await findOrder(this.db, orderId);
    await this.disputes.opened(orderId, dispute, `provider:${order?.provider ?? 'unknown'}`);
  }

  async markDisputeClosed(orderId: string, won: boolean): Promise<void> {
    const order = await findOrder(this.db, orderId);
    await this.disputes.closed(orderId, won, `provider:${order?.provider ?? 'unknown'}`);
  }

  markFraudWarning(orderId: string): Promise<void> {
    return this.disputes.fraudWarning(orderId);
  }

  /** Who gets an order's mails: its customer, or a guest's e-mail with the order's link. */
  async recipientOf(orderId: string): Promise<Recipient | undefined> {
    const order = await findOrder(this.db, orderId);
    return order && this.links.recipient(order, await buyerOf(this.db, order));
  }

  /** What a guest may buy, as the back office's settings show it (issue 29). */
  async guestSettings(): Promise<Pick<AdminSettings, 'guestMaxOrder' | 'guestMaxCopies' | 'guestOrdersPerDay'>> {
    return guestSettings(await guestLimits(this.db));
  }

  async setGuestSettings(patch: Pick<AdminSettingsPatch, 'guestMaxOrder' | 'guestMaxCopies' | 'guestOrdersPerDay'>): Promise<void> {
    await saveGuestLimits(this.db, patch);
  }

  /** Orders placed and euro paid and kept, per buyer (the back office's customer table). */
  async figuresFor(userIds: string[]): Promise<Map<string, { orders: number; totalSpent: number }>> {
    const figures = await buyerFigures(this.db, userIds);
    return new Map([...figures].map(([id, figure]) => [id, { orders: figure.orders, totalSpent: figure.spentCents / 100 }]));
  }

  /** Paid orders still undelivered `minutes` after payment (operator alerts). */
  overdueDeliveries(minutes: number): Promise<{ count: number; oldest: string | null }> {
    return overdueDeliveries(this.db, minutes);
  }

  /** Paid lines still without keys and the oldest one's wait (the metrics). */
  keysWaiting(): Promise<{ lines: number; oldestSeconds: number }> {
    return keysWaiting(this.db);
  }

  /** Games that sold in the last `days` days and ran out of stock (operator alerts). */
  soldOutBestsellers(days: number): Promise<Array<{ id: string; title: string }>> {
    return soldOutBestsellers(this.db, days);
  }

  /** The games paid for in the same orders as `gameId` within `days`, most often first: "customers also bought" (issue 31). */
  boughtWith(gameId: string, days: number, limit: number): Promise<string[]> {
    return boughtWith(this.db, gameId, days, limit);
  }

  /** The dashboard's order figures over whole UTC days (admin-store.ts). */
  figures(from: string, to: string, topGames: number): Promise<OrderFigures> {
    return orderFigures(this.db, from, to, topGames);
  }

  /** The order's timeline (decision 019), for the back office: who moved it from which state to which, when and why. */
  timeline(orderId: string): Promise<OrderEventRow[]> {
    return eventsOfOrder(this.db, orderId);
  }

  /** Expires every order whose 30 minutes are over; answers how many (the expiry job). */
  async expireDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const { orders: expired, returned } = await this.db.transaction(async (tx) => {
        const { orders, lines } = await expireDueOrders(tx, EXPIRY_BATCH);
        return { orders, returned: await this.deps.offers.release(tx, lines, 'expired') };
      });
      // Their keys are back on the shelf: shown at once here, and told to the other instances.
      if (returned.length > 0) this.deps.events.emit('stock-moved', { games: returned });
      for (const order of expired) this.deps.events.emit('order-expired', { orderId: order.id, userId: order.userId });
      total += expired.length;
      if (expired.length < EXPIRY_BATCH) return total;
    }
  }

  /** The profile's figures: money paid and kept, keys delivered and not voided, and the order history. */
  async summaryFor(userId: string): Promise<PurchaseSummary> {
    const [cents, totalGames, orders] = await Promise.all([totalPaidCents(this.db, userId), this.deps.library.liveKeyCount(userId), this.list(userId)]);
    return { totalSpent: cents / 100, totalGames, purchaseHistory: orders.map(toHistoryEntry) };
  }

  /** Whether the request holds this order's signed link. */
  opensByLink(orderId: string, access: OrderAccess): Promise<boolean> {
    return access.token === undefined ? Promise.resolve(false) : this.links.opens(orderId, access.token);
  }

  private async ownedOrder(orderId: string, access: OrderAccess): Promise<OrderRow> {
    let row = await findOrder(this.db, orderId);
    const opens = row !== undefined && ((access.userId !== undefined && row.userId === access.userId) || (await this.opensByLink(orderId, access)));
    if (!row || !opens) throw new NotFound(orderMessages.orderNotFound);
    if (row.status === 'Awaiting payment' && row.expiresAt <= new Date()) {
      await this.payments.closeUnpaid(orderId, 'Expired', null, 'system:expiry');
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
