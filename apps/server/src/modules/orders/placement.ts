// Placing an order (decision 008) and answering a repeated request with the order it placed
// (an Idempotency-Key, decision 015): a checkout retried after a lost answer must find its order
// rather than reserve the same keys a second time.
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  centsToEuro,
  HOUSE_SELLER_ID,
  MAX_UNPAID_KEYS,
  MAX_UNPAID_KEYS_PER_ADDRESS,
  MAX_UNPAID_ORDERS,
  MAX_UNPAID_ORDERS_PER_ADDRESS,
  ORDER_CURRENCY,
  ORDER_LINE_MAX_QUANTITY,
  ORDER_TTL_MINUTES,
  orderMessages,
  sellerMessages,
  type CreateOrderAnswer,
  type CreateOrderRequest,
  type PaymentProviderName,
} from '@keystore/contract';
import type { Config } from '../../config.ts';
import type { Database, Db } from '../../db/client.ts';
import { Conflict, HttpError, Invalid } from '../../platform/errors.ts';
import type { GameStock, StoreEventBus } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import type { PaymentProvider } from '../payments/ports.ts';
import type { Accounts } from '../users/ports.ts';
import { assertAwaitingPayment, type PaymentStates } from './payment-states.ts';
import {
  insertOrder,
  linesOfOrder,
  lockOrder,
  lockPlacers,
  orderOfAttempt,
  releaseIdempotencyKey,
  unpaidTotals,
  type Buyer,
  type OrderLineRow,
  type OrderRow,
} from './store.ts';
import type { OffersService, OrderRequestLine } from '../offers/ports.ts';
import { moveLine } from './failover.ts';
import { checkoutFacts } from './screening.ts';
import type { RiskService } from '../risk/ports.ts';
import type { GiftsService } from '../gifts/ports.ts';
import { assertGuestMayOrder, assertWithinGuestLimits, guestLimits, type GuestLimits, type OrderLinks } from './guests.ts';

/** What a transaction's failures and closings change outside it, told once it commits. */
interface Announce {
  announce(): Promise<void>;
}

/** Rounds of asking sellers to confirm, each moving the refused lines to the next offer. */
const MAX_CONFIRM_ROUNDS = 4;
import { lineImage, toOrder } from './views.ts';


/** Who places an order: the customer (or a guest's e-mail, issue 29), and the client address and browser the request came from. */
export type Placer = Buyer & { address: string; browser?: string | undefined; /** A signed-in buyer's e-mail, as the request found it. */ accountEmail?: string | undefined };

/** A gift as the order request carries it, parsed (issue 29). */
type GiftRequestOf = { email: string; name: string; message: string };

/** A request sent with an Idempotency-Key: the key, and what it asked for (requestHashOf). */
interface Attempt {
  key: string;
  requestHash: string;
}

export interface OrderPlacementDeps {
  database: Database;
  config: Config;
  accounts: Accounts;
  payments: PaymentStates;
  log: FastifyBaseLogger;
  events: StoreEventBus;
  /** Declared-stock sellers confirm their reservations before the payment page (issue 24). */
  offers: OffersService;
  /** A guest's order token, answered with its order. */
  links: OrderLinks;
  /** Who a gift order is for (issue 29), recorded with the order. */
  gifts: Pick<GiftsService, 'create'>;
  /** The risk desk, told what was observed of each order at checkout (issue 29). */
  risk: Pick<RiskService, 'prepare'>;
}

export class OrderPlacement {
  private readonly deps: OrderPlacementDeps;

  constructor(deps: OrderPlacementDeps) {
    this.deps = deps;
  }

  private get db() {
    return this.deps.database.db;
  }

  /**
   * Places an order: merges repeated games, prices every line from the catalogue, reserves the
   * stock (409 naming the first game that cannot be covered) and asks the payment provider where to pay.
   * With an Idempotency-Key, a key this customer has placed an order with answers that order again and
   * reserves nothing (422 when the key came with other items).
   */
  async place(placer: Placer, items: CreateOrderRequest['items'], idempotencyKey?: string, gift?: GiftRequestOf): Promise<CreateOrderAnswer> {
    const merged = mergeItems(items);
    const attempt = idempotencyKey === undefined ? undefined : { key: idempotencyKey, requestHash: requestHashOf(merged) };
    if (attempt) {
      const earlier = await orderOfAttempt(this.db, placer, attempt.key);
      if (earlier) return this.answerAgain(earlier, attempt);
    }
    const provider = this.deps.payments.provider(this.deps.config.payments.provider);
    let placed: { row: OrderRow; lines: OrderLineRow[]; stock: GameStock[] };
    try {
      placed = await this.placeNew(placer, merged, provider.name, attempt, gift && { ...gift, senderName: placer.userId ? ((await this.deps.accounts.findById(placer.userId))?.username ?? null) : null });
      this.deps.events.emit('stock-moved', { games: placed.stock });
      this.deps.events.emit('order-placed', { orderId: placed.row.id, userId: placed.row.userId });
    } catch (error) {
      // A request with the same key was placing its order meanwhile: the unique index refused this
      // insert, or that order took the last keys or the last unpaid slot first. That order is the answer.
      const winner = attempt && (await orderOfAttempt(this.db, placer, attempt.key));
      if (!winner) throw error;
      return this.answerAgain(winner, attempt);
    }
    const { row } = placed;
    const lines = await this.confirmSellers(row, placed.lines);
    let paymentUrl: string;
    try {
      paymentUrl = await this.openCheckout(provider, row, lines);
    } catch (error) {
      // No way to pay: the keys go back on the shelf at once rather than in 30 minutes, and the key is
      // freed, so the same attempt tried again places a new order instead of meeting this closed one.
      this.deps.log.error({ err: error, orderId: row.id, provider: provider.name }, 'could not open the checkout');
      if (attempt) await releaseIdempotencyKey(this.db, row.id);
      await this.deps.payments.closeUnpaid(row.id, 'Declined', orderMessages.paymentUnavailable, 'system:checkout');
      throw new HttpError(503, orderMessages.paymentUnavailable);
    }
    return { order: toOrder(row, lines, new Map()), paymentUrl, ...(await this.tokenOf(row)) };
  }

  /** A guest's order token (the order's signed link); a customer's order needs none. */
  private async tokenOf(row: OrderRow): Promise<{ token?: string }> {
    return row.userId ? {} : { token: await this.deps.links.token(row.id) };
  }

  /**
   * Reserves the stock and writes the order awaiting payment, in one transaction, within what one
   * customer and one address may hold unpaid (withinUnpaidCaps).
   */
  private async placeNew(placer: Placer, merged: OrderRequestLine[], provider: PaymentProviderName, attempt: Attempt | undefined, gift: (GiftRequestOf & { senderName: string | null }) | undefined) {
    const id = newId();
    const now = new Date();
    return this.db.transaction(async (tx) => {
      const guest = placer.email !== undefined ? await guestLimits(tx) : undefined;
      await this.withinUnpaidCaps(tx, placer, merged, guest);
      const { lines, stock } = await this.deps.offers.take(tx, id, merged);
      // A guest's order is capped further once its prices are known; refused, nothing stays taken.
      if (guest) assertWithinGuestLimits(lines, guest);
      const row: OrderRow = {
        id,
        userId: placer.userId ?? null,
        email: placer.email ?? null,
        gift: gift !== undefined,
        status: 'Awaiting payment',
        deliveryStatus: 'Pending',
        amountCents: lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0),
        currency: ORDER_CURRENCY,
        provider,
        providerRef: null,
        declineReason: null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + ORDER_TTL_MINUTES * 60_000),
        paidAt: null,
        deliveredAt: null,
        refundedAt: null,
        supplierOrderId: null,
        allocationAttempts: 0,
        nextAllocationAt: null,
        lastAllocationError: null,
        delayNoticeAt: null,
        idempotencyKey: attempt?.key ?? null,
        placedFrom: placer.address,
        placedBrowser: placer.browser ?? null,
        authorisedUntil: null,
        requestHash: attempt?.requestHash ?? null,
      };
      await insertOrder(tx, row, lines);
      // What the risk desk assesses the payment from, observed now, with the order (issue 29). Card
      // testing: an e-mail, address or browser with 3 declines in 10 minutes gets 429 here for a day.
      const facts = checkoutFacts(id, placer, placer.address, placer.browser, row.amountCents);
      await this.deps.risk.prepare(tx, id, facts, { email: placer.email ?? placer.accountEmail, address: placer.address, browser: placer.browser });
      if (gift) await this.deps.gifts.create(tx, { orderId: id, email: gift.email, name: gift.name, message: gift.message, senderUserId: placer.userId ?? null, senderName: gift.senderName });
      return { row, lines, stock };
    });
  }

  /**
   * Has every declared-stock seller of the order confirm its reservation before the payment page is
   * shown (issue 24). A seller that refuses or stays silent loses the line to the next offer at no more
   * than the price the buyer was shown; when none is left at that price, the order is cancelled and the
   * answer is the 409 with the new price (or the stock conflict), as when the cart's prices are out of date.
   */
  private async confirmSellers(row: OrderRow, lines: OrderLineRow[]): Promise<OrderLineRow[]> {
    const { offers } = this.deps;
    if (lines.every((line) => line.sellerId === HOUSE_SELLER_ID)) return lines;
    for (let round = 0; round < MAX_CONFIRM_ROUNDS; round += 1) {
      const refused = await offers.confirmReservations(row.id);
      if (refused.length === 0) return linesOfOrder(this.db, row.id);
      const dearer: Array<{ gameId: string; price: number }> = [];
      let gone: OrderLineRow | undefined;
      // Each refusal fails its reservation and moves its line in one transaction (decision 031), with the
      // order closed in it too when a line finds no offer: the order first, then games in id order, as
      // a delivery and placement lock them.
      const outcome = await this.db.transaction(async (tx) => {
        if ((await lockOrder(tx, row.id))?.status !== 'Awaiting payment') return { announce: [] as Announce[], closed: true };
        const current = await linesOfOrder(tx, row.id);
        const announce: Announce[] = [];
        for (const { reservation, reason } of refused.sort((a, b) => (a.reservation.gameId < b.reservation.gameId ? -1 : 1))) {
          const failure = await offers.failReservation(tx, reservation, reason, 0);
          if (!failure) continue;
          announce.push(failure);
          const line = current.find((candidate) => candidate.id === reservation.lineId)!;
          const moved = await moveLine(offers, tx, line, line.unitPriceCents);
          if (moved.moved) continue;
          if (moved.cheapestCents === undefined) gone = line;
          else dearer.push({ gameId: line.gameId, price: centsToEuro(moved.cheapestCents) });
        }
        if (!gone && dearer.length === 0) return { announce, closed: false };
        const closed = await this.deps.payments.closeWithin(tx, row.id, 'Cancelled', 'a seller could not hold the keys', 'system:placement');
        return { announce: closed ? [...announce, closed] : announce, closed: true };
      });
      for (const each of outcome.announce) await each.announce();
      if (gone) throw new Conflict(orderMessages.outOfStock(gone.title, 0));
      if (dearer.length > 0) throw new HttpError(409, sellerMessages.priceChanged, {}, { prices: dearer });
      // Lapsed meanwhile: paying it answers why.
      if (outcome.closed) return linesOfOrder(this.db, row.id);
    }
    return linesOfOrder(this.db, row.id);
  }

  /**
   * Refuses (409) an order that would take what the customer, or everyone placing from the same
   * address, holds unpaid past the caps (decision 016): every unpaid order keeps its keys off the shelf
   * for up to 30 minutes. Counted under locks on the customer and the address that last until the
   * transaction ends, so two placements racing on any instances are counted one after the other.
   */
  private async withinUnpaidCaps(tx: Db, placer: Placer, merged: OrderRequestLine[], guest: GuestLimits | undefined): Promise<void> {
    await lockPlacers(tx, placer, placer.address);
    if (guest) await assertGuestMayOrder(tx, placer.email!, guest);
    const { mine, here } = await unpaidTotals(tx, placer, placer.address);
    const adding = merged.reduce((sum, line) => sum + line.quantity, 0);
    if (mine.orders >= MAX_UNPAID_ORDERS) throw new Conflict(orderMessages.tooManyUnpaidOrders);
    if (mine.keys + adding > MAX_UNPAID_KEYS) throw new Conflict(orderMessages.tooManyUnpaidKeys(mine.keys));
    // One line's worth of a game at most, over all unpaid orders: a second order cannot take another ten.
    for (const line of merged) {
      const held = mine.keysPerGame.get(line.gameId) ?? 0;
      if (held > 0 && held + line.quantity > ORDER_LINE_MAX_QUANTITY) throw new Conflict(orderMessages.tooManyUnpaidOfGame(mine.titles.get(line.gameId) ?? line.gameId, held));
    }
    // The address caps are scaled with the rate limits (RATE_LIMIT_SCALE): a benchmark's or a test
    // cluster's buyers all come from one machine.
    const scale = this.deps.config.rateLimitScale;
    if (here.orders >= MAX_UNPAID_ORDERS_PER_ADDRESS * scale) throw new Conflict(orderMessages.tooManyUnpaidOrdersFromAddress);
    if (here.keys + adding > MAX_UNPAID_KEYS_PER_ADDRESS * scale) throw new Conflict(orderMessages.tooManyUnpaidKeysFromAddress);
  }

  /**
   * The answer to a request repeated with the Idempotency-Key of `earlier`: that order and its
   * checkout, reopened. An order no longer awaiting payment answers the 409 paying it would.
   */
  private async answerAgain(earlier: OrderRow, attempt: Attempt): Promise<CreateOrderAnswer> {
    if (earlier.requestHash !== attempt.requestHash) throw new HttpError(422, orderMessages.idempotencyKeyReused);
    if (earlier.status === 'Awaiting payment' && earlier.expiresAt <= new Date()) {
      await this.deps.payments.markExpired(earlier.id);
      throw new Conflict(orderMessages.orderExpired);
    }
    assertAwaitingPayment(earlier);
    const [lines, paymentUrl, token] = await Promise.all([linesOfOrder(this.db, earlier.id), this.checkoutAgain(earlier), this.tokenOf(earlier)]);
    return { order: toOrder(earlier, lines, new Map()), paymentUrl, ...token };
  }

  /**
   * Where to go back to paying an order awaiting payment: the provider's same checkout, never a second
   * one (503 when the provider cannot say, the order left as it is).
   */
  async checkoutAgain(row: OrderRow): Promise<string> {
    // A provider's checkout is recorded on the order once it is open: until then the first request
    // (a double click's twin) is still opening it, and a moment later the same checkout can be reopened.
    if (row.provider !== 'test' && !row.providerRef) throw new HttpError(503, orderMessages.paymentUnavailable, { 'Retry-After': '1' });
    try {
      return await this.deps.payments.provider(row.provider).reopenUrl({ id: row.id, providerRef: row.providerRef });
    } catch (error) {
      if (error instanceof HttpError) throw error;
      this.deps.log.error({ err: error, orderId: row.id, provider: row.provider }, 'could not reopen the checkout');
      throw new HttpError(503, orderMessages.paymentUnavailable);
    }
  }

  private async openCheckout(provider: PaymentProvider, row: OrderRow, lines: OrderLineRow[]): Promise<string> {
    // The test gateway has no use for the buyer's e-mail; a real provider sends its receipt there.
    const customerEmail = provider.name === 'test' ? undefined : (row.email ?? (row.userId ? (await this.deps.accounts.findById(row.userId))?.email : undefined));
    const checkout = await provider.openCheckout({
      id: row.id,
      amountCents: row.amountCents,
      currency: row.currency,
      expiresAt: row.expiresAt,
      customerEmail,
      // A guest comes back from the provider to its order's page, which only its link opens.
      ...(row.userId ? {} : { returnToken: (await this.tokenOf(row)).token }),
      lines: lines.map((line) => ({ ...line, image: lineImage(line) })),
    });
    // Recorded before the answer: a repeated request reopens this checkout (checkoutAgain), and a refund finds the money through it.
    if (checkout.providerRef) await this.deps.payments.setProviderRef(row.id, checkout.providerRef);
    return checkout.url;
  }
}

/**
 * One line per game and offer chosen (a game listed twice is one line with both quantities, and the lower
 * price shown), each within the line limit. Prices arrive in euro and are compared in cents.
 */
function mergeItems(items: CreateOrderRequest['items']): OrderRequestLine[] {
  const merged = new Map<string, OrderRequestLine>();
  for (const item of items) {
    const key = `${item.gameId} ${item.offerId ?? ''}`;
    const expected = item.expectedPrice === undefined ? undefined : Math.round(item.expectedPrice * 100);
    const line = merged.get(key);
    if (!line) merged.set(key, { gameId: item.gameId, quantity: item.quantity, offerId: item.offerId, expectedPriceCents: expected });
    else {
      line.quantity += item.quantity;
      if (expected !== undefined) line.expectedPriceCents = Math.min(line.expectedPriceCents ?? expected, expected);
    }
  }
  const lines = [...merged.values()];
  const perGame = new Map<string, number>();
  for (const line of lines) perGame.set(line.gameId, (perGame.get(line.gameId) ?? 0) + line.quantity);
  if ([...perGame.values()].some((quantity) => quantity > ORDER_LINE_MAX_QUANTITY)) throw new Invalid(orderMessages.quantityInvalid);
  return lines;
}

/**
 * What a request with an Idempotency-Key asked for, as a hash: its merged lines in game order, so the
 * same games and quantities listed in another order are the same request.
 */
function requestHashOf(lines: OrderRequestLine[]): string {
  const normalised = [...lines]
    .sort((a, b) => (`${a.gameId} ${a.offerId ?? ''}` < `${b.gameId} ${b.offerId ?? ''}` ? -1 : 1))
    .map((line) => (line.offerId === undefined ? [line.gameId, line.quantity] : [line.gameId, line.quantity, line.offerId]));
  return createHash('sha256').update(JSON.stringify(normalised)).digest('hex');
}
