// Declared stock: sellers who hand over keys just in time (issue 24): their signed webhook, the
// reservation asked for at placement (`reserve`), the keys asked for after payment (`provide`, tried 3
// times), the `cancel` owed when a reservation ends, the failure fee and the circuit breaker. It answers
// what the seller did; the next offer is found by placement.ts, and the order's line is rewritten or
// refunded by the orders module (orders/failover.ts). Other modules reach it only through the offers service.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import {
  CANCEL_RETRY_HOURS,
  PAUSE_AFTER_FAILURES,
  centsToEuro,
  RESERVATIONS_PAGE_SIZE,
  sellerDeliveryMessages as m,
  type Reservation,
  type ReservationState,
  type SellerWebhook,
  type SellerWebhookPing,
  type WebhookType,
} from '@keystore/contract';
import { sql } from 'drizzle-orm';
import { inList, queryRows, type Database, type Db } from '../../db/client.ts';
import { Conflict, Invalid } from '../../platform/errors.ts';
import type { StoreEventBus } from '../../platform/events.ts';
import { compose, type MailContext } from '../../platform/mail/layout.ts';
import type { Mailer } from '../../platform/mailer.ts';
import type { Ledger } from '../ledger/ports.ts';
import type { LibraryService } from '../library/ports.ts';
import type { NotificationsService } from '../notifications/ports.ts';
import type { SellerRow, SellersService } from '../sellers/ports.ts';
import type { Market } from './market.ts';
import { sealKeys } from './seal.ts';
import { newWebhookSecret } from './signature.ts';
import { insertKeys } from './store.ts';
import {
  eventsOfReservations,
  findReservation,
  recordCall,
  reservationPage,
  reservationsOfOrderNamed,
  reservationsOfOrder,
  settleCancel,
  takeDueCancels,
  type ReservationEventRow,
  type ReservationRow,
} from './reservations.ts';
import { moveReservations, OPEN_STATES } from './transitions.ts';
import { WebhookClient, type CallResult } from './webhook-client.ts';
import type { Metrics } from '../../platform/metrics.ts';

/** How long each call may take, and the provide's attempts: the figures, shortened only by tests. */
export interface DeliveryTimings {
  reserveTimeoutMs: number;
  provideTimeoutMs: number;
  provideAttempts: number;
  provideRetryMs: number;
}

export interface SellerDeliveryDeps {
  database: Database;
  sellers: SellersService;
  ledger: Ledger;
  library: LibraryService;
  notifications: NotificationsService;
  mailer: Mailer;
  mailContext: MailContext;
  events: StoreEventBus;
  log: FastifyBaseLogger;
  production: boolean;
  timings: DeliveryTimings;
  /** The games rows' market columns, which follow the breaker (offers/market.ts). */
  market: Market;
  /** Where reservations and provides are counted and timed. */
  metrics?: Metrics | undefined;
}

/** Why a `provide` did not bring the keys: `retry` problems are tried again, the others fail at once. */
export type ProvideOutcome = { ok: true } | { ok: false; reason: string; gone?: boolean };

/** The breaker (per offer, counting reservations): more than 20 % of at least 5 in the last hour failed. */
const BREAKER_MIN_RESERVATIONS = 5;
const BREAKER_FAILED_SHARE = 0.2;
/** Minutes an offer stays out of the store when the breaker opens: 15, then 30, then 60. */
const breakerMinutes = (trips: number) => 15 * 2 ** Math.min(trips, 2);
const CANCEL_BATCH = 20;

export class SellerDelivery {
  readonly client: WebhookClient;
  private readonly deps: SellerDeliveryDeps;

  constructor(deps: SellerDeliveryDeps) {
    this.deps = deps;
    this.client = new WebhookClient({ production: deps.production });
  }

  private get db() {
    return this.deps.database.db;
  }

  get timings(): DeliveryTimings {
    return this.deps.timings;
  }

  // --- The seller's webhook ----------------------------------------------------------------------

  webhook(seller: SellerRow): SellerWebhook | null {
    return seller.webhookUrl ? { url: seller.webhookUrl, createdAt: seller.webhookCreatedAt?.toISOString() } : null;
  }

  /** Registers or changes the endpoint; the secret is made, and answered, on the first registration only. */
  async setWebhook(seller: SellerRow, url: string): Promise<SellerWebhook> {
    // The contract's rule lets through what only a URL parser refuses (a port of 99999, a bad escape).
    if (!URL.canParse(url)) throw new Invalid(m.webhookUrlInvalid);
    const problem = await this.client.problem(url);
    if (problem) throw new Invalid(problem === 'only https' ? m.webhookUrlInvalid : m.webhookUrlRefused);
    const secret = seller.webhookSecretSealed ? undefined : newWebhookSecret();
    await this.deps.sellers.saveWebhook(seller.id, url, secret ? this.deps.library.seal(secret, secretContext(seller.id)) : null);
    return { url, ...(secret ? { secret } : {}) };
  }

  async rotateSecret(seller: SellerRow): Promise<{ secret: string }> {
    if (!seller.webhookUrl) throw new Conflict(m.webhookMissing);
    const secret = newWebhookSecret();
    await this.deps.sellers.saveWebhookSecret(seller.id, this.deps.library.seal(secret, secretContext(seller.id)));
    return { secret };
  }

  /** Sends a signed `ping`, so a seller can see its receiver verify the store's signature. */
  async ping(seller: SellerRow): Promise<SellerWebhookPing> {
    const result = await this.callSeller(seller, { type: 'ping', sellerId: seller.id, at: new Date().toISOString() }, this.deps.timings.reserveTimeoutMs);
    return { ok: result.ok, status: result.status, durationMs: result.durationMs, error: result.error };
  }

  private callSeller(seller: Pick<SellerRow, 'id' | 'webhookUrl' | 'webhookSecretSealed'>, payload: { type: WebhookType } & Record<string, unknown>, timeoutMs: number): Promise<CallResult> {
    if (!seller.webhookUrl || !seller.webhookSecretSealed) return Promise.resolve({ ok: false, status: null, body: null, error: 'no webhook registered', durationMs: 0 });
    const secret = this.deps.library.unseal(seller.webhookSecretSealed, secretContext(seller.id));
    return this.client.call(seller.webhookUrl, secret, payload, timeoutMs);
  }

  /** A page of the seller's reservations, each with its moves and its calls. */
  async reservations(seller: SellerRow, page: number): Promise<{ items: Reservation[]; total: number; page: number; pageSize: number }> {
    const { rows, total } = await reservationPage(this.db, seller.id, page, RESERVATIONS_PAGE_SIZE);
    const events = await eventsOfReservations(this.db, rows.map((row) => row.id));
    return { items: rows.map((row) => toReservation(row, row.title, events)), total, page, pageSize: RESERVATIONS_PAGE_SIZE };
  }

  /** An order's reservations with their moves and calls, for the back office's timeline. */
  async timeline(orderId: string): Promise<Array<Reservation & { seller: string }>> {
    const rows = await reservationsOfOrderNamed(this.db, orderId);
    const events = await eventsOfReservations(this.db, rows.map((row) => row.id));
    return rows.map((row) => ({ ...toReservation(row, row.title, events), seller: row.seller }));
  }

  // --- At placement ------------------------------------------------------------------------------

  /**
   * Asks each seller of the order's `requested` reservations to hold its keys, all at once, each within
   * the reserve deadline. Answers the reservations refused (an error, a silence, anything but
   * `{ reserved: true }`) with why, still requested: the caller fails each in the transaction that moves
   * its line on (failWithin), so a crash in between leaves an open reservation, never a failed one
   * whose line waits on its offer. The others are reserved.
   */
  async confirm(orderId: string): Promise<Refusal[]> {
    const requested = await reservationsOfOrder(this.db, orderId, ['requested']);
    const refused: Refusal[] = [];
    await Promise.all(
      requested.map(async (reservation) => {
        const seller = (await this.deps.sellers.find(reservation.sellerId))!;
        const result = await this.callSeller(seller, payloadOf('reserve', reservation), this.deps.timings.reserveTimeoutMs);
        await recordCall(this.db, reservation.id, 'reserve', result);
        const accepted = result.ok && (result.body as { reserved?: unknown } | null)?.reserved === true;
        this.deps.metrics?.reservations.inc({ outcome: accepted ? 'reserved' : 'refused' });
        if (accepted) {
          await this.db.transaction((tx) => moveReservations(tx, [reservation.id], 'reserved', null));
          return;
        }
        // A refusal or a silence counts for the offer's breaker like a failed provide; no fee: nothing was sold.
        refused.push({ reservation, reason: `reserve refused: ${result.error ?? 'the seller did not answer { reserved: true }'}` });
      }),
    );
    return refused;
  }

  // --- After payment -----------------------------------------------------------------------------

  /**
   * Asks the seller for a reservation's keys and stores them, reserved for its line: up to the attempts'
   * count when the call errs, times out or answers a malformed body; at once a failure for the wrong
   * number of keys or a key the store already knows. Every attempt carries the same reservation id, and
   * the keys are stored in the transaction that moves the reservation to `provided`, so a seller who
   * answers twice, or a run taken over after a crash, stores them once.
   */
  async provide(reservationId: string): Promise<ProvideOutcome> {
    const reservation = await findReservation(this.db, reservationId);
    if (!reservation) return { ok: false, reason: 'no such reservation', gone: true };
    if (reservation.state === 'provided' || reservation.state === 'delivered') return { ok: true };
    if (!OPEN_STATES.includes(reservation.state)) return { ok: false, reason: `the reservation is ${reservation.state}`, gone: true };
    const started = Date.now();
    const outcome = await this.askForKeys(reservation);
    const labels = { outcome: outcome.ok ? 'provided' : 'failed' };
    this.deps.metrics?.reservations.inc(labels);
    this.deps.metrics?.provideDuration.observe(labels, (Date.now() - started) / 1000);
    return outcome;
  }

  /** The provide's attempts: the seller's answers until one brings the keys, then the keys stored. */
  private async askForKeys(reservation: ReservationRow): Promise<ProvideOutcome> {
    const { timings, sellers } = this.deps;
    const seller = (await sellers.find(reservation.sellerId))!;
    const started = Date.now();
    let why = 'no attempt made';
    for (let attempt = 1; attempt <= timings.provideAttempts; attempt += 1) {
      if (attempt > 1) await sleep(timings.provideRetryMs);
      const result = await this.callSeller(seller, payloadOf('provide', reservation), timings.provideTimeoutMs);
      await recordCall(this.db, reservation.id, 'provide', result);
      await this.db.execute(sql`update seller_reservations set provide_calls = provide_calls + 1 where id = ${reservation.id}`);
      const keys = (result.body as { keys?: unknown } | null)?.keys;
      if (!result.ok || !Array.isArray(keys) || !keys.every((key) => typeof key === 'string') || keys.length === 0) {
        why = result.error ?? 'the answer carried no list of keys';
        continue;
      }
      if (keys.length !== reservation.quantity) return { ok: false, reason: `${keys.length} keys handed over for ${reservation.quantity}` };
      return this.storeProvided(reservation, keys as string[], Math.round((Date.now() - started) / 1000));
    }
    return { ok: false, reason: `after ${timings.provideAttempts} attempts: ${why}` };
  }

  private async storeProvided(reservation: ReservationRow, keys: string[], seconds: number): Promise<ProvideOutcome> {
    const { rows, duplicates, invalid } = await sealKeys(this.deps.library, { id: reservation.offerId, sellerId: reservation.sellerId, gameId: reservation.gameId }, keys);
    if (invalid > 0) return { ok: false, reason: `${invalid} of the keys handed over are not valid keys` };
    if (duplicates > 0) return { ok: false, reason: `${duplicates} of the keys handed over are already known to the store` };
    return this.db
      .transaction(async (tx) => {
        const moved = await moveReservations(tx, [reservation.id], 'provided', null, sql`, provided_at = now(), provide_seconds = ${seconds}`);
        // Failed over, cancelled or provided meanwhile (a late answer, another instance): this answer is not used.
        if (moved.length === 0) throw new NotUsed('the reservation was no longer open');
        const written = await insertKeys(tx, rows.map((row) => ({ ...row, state: 'reserved' as const, orderId: reservation.orderId, lineId: reservation.lineId })));
        if (written < reservation.quantity) throw new NotUsed("a key handed over is already in another seller's stock");
        await tx.execute(sql`update offers set failure_streak = 0 where id = ${reservation.offerId}`);
        return { ok: true } as const;
      })
      .catch((error: unknown) => {
        if (error instanceof NotUsed) return { ok: false, reason: error.message, gone: error.message.startsWith('the reservation') } as const;
        throw error;
      });
  }

  /**
   * A reservation whose seller failed, in the caller's transaction (decision 031: with the move of its
   * line, or the refund that line is owed): moved to failed (the cancel then goes out), the failure fee
   * posted to the seller's balance, and the offer's breaker counted. Answers what to announce once the
   * transaction commits, or undefined when it was no longer open (another run settled it).
   */
  async failWithin(tx: Db, reservation: ReservationRow, reason: string, feeCents: number): Promise<FailedReservation | undefined> {
    // The game before the offer (the breaker may change both), in placement's order.
    await this.deps.market.lock(tx, [reservation.gameId]);
    const moved = await moveReservations(tx, [reservation.id], 'failed', reason.slice(0, 500));
    if (moved.length === 0) return undefined;
    await this.deps.ledger.postFee(tx, { reservationId: reservation.id, sellerId: reservation.sellerId, orderId: reservation.orderId, amountCents: feeCents });
    const tripped = await this.countFailure(tx, reservation.offerId);
    const games = tripped ? await this.deps.market.refresh(tx, [reservation.gameId]) : [];
    return {
      announce: async () => {
        if (games.length > 0) this.deps.events.emit('stock-moved', { games });
        if (tripped) await this.tellSeller(tripped);
      },
    };
  }

  /** failWithin in a transaction of its own (a claim's replacement, whose line is not moved). */
  async failed(reservation: ReservationRow, reason: string, feeCents: number): Promise<boolean> {
    const failure = await this.db.transaction((tx) => this.failWithin(tx, reservation, reason, feeCents));
    await failure?.announce();
    return failure !== undefined;
  }

  /** The breaker: hides the offer for 15, 30, then 60 minutes, or pauses it after 3 failures in a row. */
  private async countFailure(tx: Db, offerId: string): Promise<{ offerId: string; sellerId: string; title: string; why: string } | undefined> {
    const [offer] = await queryRows<{ seller_id: string; title: string; failure_streak: number; breaker_trips: number; hidden: boolean; failed: number; total: number }>(
      tx,
      sql`update offers o set failure_streak = o.failure_streak + 1 from game_facts g where o.id = ${offerId} and g.id = o.game_id
          returning o.seller_id, g.title, o.failure_streak, o.breaker_trips, coalesce(o.hidden_until > now(), false) as hidden,
            (select count(*)::int from seller_reservations r where r.offer_id = o.id and r.state = 'failed' and r.updated_at > now() - interval '1 hour') as failed,
            (select count(*)::int from seller_reservations r where r.offer_id = o.id and r.state in ('failed', 'provided', 'delivered') and r.updated_at > now() - interval '1 hour') as total`,
    );
    if (!offer) return undefined;
    if (offer.failure_streak >= PAUSE_AFTER_FAILURES) {
      await tx.execute(sql`update offers set status = 'paused', updated_at = now() where id = ${offerId} and status = 'active'`);
      return { offerId, sellerId: offer.seller_id, title: offer.title, why: `paused after ${offer.failure_streak} failed reservations in a row; resume it when your endpoint works again` };
    }
    if (!offer.hidden && offer.total >= BREAKER_MIN_RESERVATIONS && offer.failed / offer.total > BREAKER_FAILED_SHARE) {
      const minutes = breakerMinutes(offer.breaker_trips);
      await tx.execute(sql`update offers set hidden_until = now() + make_interval(mins => ${minutes}), breaker_trips = breaker_trips + 1 where id = ${offerId}`);
      return { offerId, sellerId: offer.seller_id, title: offer.title, why: `hidden for ${minutes} minutes: ${offer.failed} of your last ${offer.total} reservations failed within the hour` };
    }
    return undefined;
  }

  private async tellSeller(trip: { sellerId: string; title: string; why: string }): Promise<void> {
    const { notifications, mailer, mailContext, log } = this.deps;
    try {
      const seller = await this.deps.sellers.find(trip.sellerId);
      if (!seller?.userId) return;
      const text = `Your offer of ${trip.title} is ${trip.why}.`;
      await notifications.publish({ userId: seller.userId, kind: 'seller-alert', title: 'Offer taken out of the store', text, link: '/seller/reservations' });
      await this.db.transaction((tx) =>
        mailer.enqueue(
          tx,
          compose(mailContext, seller.contactEmail, {
            subject: `Your Keystore offer of ${trip.title} is out of the store`,
            greeting: `Hello ${seller.name},`,
            paragraphs: [text, 'Each reservation and every call to your endpoint, with its answer, is listed under Reservations in your seller area.'],
            button: { label: 'See your reservations', href: `${mailContext.publicUrl}/seller/reservations` },
            after: [],
          }),
        ),
      );
      mailer.flush();
    } catch (error) {
      log.error({ err: error, offerId: trip }, 'could not tell a seller its offer left the store');
    }
  }

  /** Reservations by id (a claim's replacement, when its provide failed). */
  reservationsById(ids: string[]): Promise<ReservationRow[]> {
    return Promise.all(ids.map((id) => findReservation(this.db, id))).then((rows) => rows.filter((row): row is ReservationRow => row !== undefined));
  }


  // --- The cancel job ------------------------------------------------------------------------------

  /**
   * Sends the cancels that are due, each instance taking its own (skip locked); one the seller does not
   * take with a 2xx is tried again later, backing off to an hour, for a day. Answers how many were sent.
   */
  async sendDueCancels(): Promise<number> {
    let sent = 0;
    for (const reservation of await takeDueCancels(this.db, CANCEL_BATCH)) {
      const result = await this.callSeller({ id: reservation.sellerId, webhookUrl: reservation.webhookUrl, webhookSecretSealed: reservation.webhookSecretSealed }, payloadOf('cancel', reservation), this.deps.timings.reserveTimeoutMs);
      await recordCall(this.db, reservation.id, 'cancel', result);
      if (result.ok) {
        await settleCancel(this.db, reservation.id, { state: 'sent' });
        sent += 1;
      } else if (Date.now() - new Date(reservation.createdAt).getTime() > CANCEL_RETRY_HOURS * 3_600_000) {
        await settleCancel(this.db, reservation.id, { state: 'abandoned' });
      } else {
        await settleCancel(this.db, reservation.id, { next: new Date(Date.now() + Math.min(2 ** reservation.cancelAttempts, 60) * 60_000) });
      }
    }
    return sent;
  }

  /** Offers whose breaker time is over come back to the store (every instance may run it). */
  async reopenOffers(): Promise<number> {
    const games = await this.db.transaction(async (tx) => {
      // The games before the offers, in placement's order.
      const due = await queryRows<{ game_id: string }>(tx, sql`select distinct game_id from offers where hidden_until <= now()`);
      if (due.length === 0) return [];
      const gameIds = due.map((row) => row.game_id);
      await this.deps.market.lock(tx, gameIds);
      const reopened = await queryRows<{ game_id: string }>(tx, sql`update offers set hidden_until = null where hidden_until <= now() and game_id in ${inList(gameIds)} returning game_id`);
      return reopened.length > 0 ? this.deps.market.refresh(tx, reopened.map((row) => row.game_id)) : [];
    });
    if (games.length > 0) this.deps.events.emit('stock-moved', { games });
    return games.length;
  }
}

/** A declared seller's refusal to hold keys at placement, and why. */
export interface Refusal {
  reservation: ReservationRow;
  reason: string;
}

/** A reservation failed in a caller's transaction: what its failure changes outside it, told once that commits. */
export interface FailedReservation {
  announce(): Promise<void>;
}

/** Thrown to roll back a provide's keys: the reservation moved on, or a key is in another seller's stock. */
class NotUsed extends Error {}

const secretContext = (sellerId: string) => `seller-webhook:${sellerId}`;

/** What every call about a reservation carries. */
function payloadOf(type: WebhookType, reservation: ReservationRow) {
  return {
    type,
    reservationId: reservation.id,
    orderId: reservation.orderId,
    offerId: reservation.offerId,
    gameId: reservation.gameId,
    quantity: reservation.quantity,
    unitNetPrice: centsToEuro(reservation.unitNetCents),
  };
}

function toReservation(row: ReservationRow, title: string, events: ReservationEventRow[]): Reservation {
  const own = events.filter((event) => event.reservationId === row.id);
  return {
    _id: row.id,
    orderId: row.orderId,
    offerId: row.offerId,
    gameId: row.gameId,
    title,
    quantity: row.quantity,
    unitNetPrice: centsToEuro(row.unitNetCents),
    state: row.state,
    createdAt: new Date(row.createdAt).toISOString(),
    moves: own.filter((event) => event.toState).map((event) => ({ at: new Date(event.at).toISOString(), from: event.fromState, to: event.toState as ReservationState, reason: event.reason })),
    attempts: own
      .filter((event) => event.callType)
      .map((event) => ({ at: new Date(event.at).toISOString(), type: event.callType!, status: event.httpStatus, error: event.error, durationMs: event.durationMs ?? 0 })),
  };
}

