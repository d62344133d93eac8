// Sellers who hand over keys just in time, without zod (issue 24): the reservations' states, the
// webhook's protocol figures, the texts, the form rules and the seller's score. Imported by the schemas
// in seller-delivery.ts, the server, and the web app (`@keystore/contract/seller-delivery-rules`).
import { DECLARED_STOCK_MAX } from './seller-rules.ts';

/** A reservation's states: asked for at placement, accepted, keys handed over, keys in the library; or ended. */
export const RESERVATION_STATES = ['requested', 'reserved', 'provided', 'delivered', 'cancelled', 'expired', 'failed'] as const;
export type ReservationState = (typeof RESERVATION_STATES)[number];
/** What the store sends to a seller's endpoint. */
export const WEBHOOK_TYPES = ['reserve', 'provide', 'cancel', 'ping'] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

/** The signature header of every call to a seller, like Stripe's: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export const SIGNATURE_HEADER = 'Keystore-Signature';
/** The longest a webhook URL may be. */
export const WEBHOOK_URL_MAX = 2000;
/** The most bytes of a seller's answer the store reads; a longer one is refused. */
export const WEBHOOK_ANSWER_MAX_BYTES = 64 * 1024;
/** A seller answers a `reserve` within this, or it counts as refused. */
export const RESERVE_TIMEOUT_MS = 10_000;
/** Each `provide` attempt is answered within this. */
export const PROVIDE_TIMEOUT_MS = 30_000;
/** Attempts of one `provide`, and the wait between them. */
export const PROVIDE_ATTEMPTS = 3;
export const PROVIDE_RETRY_MS = 5_000;
/** For how long a `cancel` is tried again. */
export const CANCEL_RETRY_HOURS = 24;
/** The most the store adds of its own to move a paid line to a dearer offer, as a percent of what the buyer paid (FAILOVER_MAX_EXTRA_PERCENT). */
export const DEFAULT_FAILOVER_MAX_EXTRA_PERCENT = 10;
export const RESERVATIONS_PAGE_SIZE = 25;
/** Failed reservations in a row that pause an offer until its seller resumes it (the circuit breaker). */
export const PAUSE_AFTER_FAILURES = 3;

export const sellerDeliveryMessages = {
  webhookUrlInvalid: 'Please enter a valid https URL for your webhook',
  webhookUrlRefused: 'This webhook address cannot be called: it must be a public https address',
  webhookMissing: 'Register your webhook first',
  declaredStockInvalid: `Declared stock must be a whole number from 0 to ${DECLARED_STOCK_MAX.toLocaleString('en')}`,
  deliveryInvalid: 'Delivery must be uploaded or declared',
  declaredNeedsWebhook: 'Register your webhook before offering declared stock',
  pingFailed: (why: string) => `Your endpoint did not answer the ping: ${why}`,
} as const;

// --- The seller's score ------------------------------------------------------------------------

/** A new seller's score, and the score every seller is smoothed toward. */
export const SCORE_PRIOR = 90;
/** Deliveries the prior weighs as. */
export const SCORE_PRIOR_WEIGHT = 10;
/** The default floor below which a seller with enough deliveries leaves the store. */
export const DEFAULT_SCORE_FLOOR = 80;
/** Deliveries (over 90 days) before the floor applies. */
export const SCORE_FLOOR_AFTER = 20;
export const SCORE_WINDOW_DAYS = 90;
export const SCORE_FLOOR_MESSAGE = 'The score floor must be a whole number from 0 to 100';

/** A webhook URL: http(s), a host, no user or password in it; the server checks the rest (https in production, a public address). */
export function webhookUrlProblem(value: string): string | undefined {
  const url = value.trim();
  return url.length <= WEBHOOK_URL_MAX && /^https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i.test(url) ? undefined : sellerDeliveryMessages.webhookUrlInvalid;
}

/** Declared stock as typed: a whole number from 0 to 100,000. */
export function declaredStockProblem(value: string): string | undefined {
  const text = value.trim();
  return /^\d{1,6}$/.test(text) && Number(text) <= DECLARED_STOCK_MAX ? undefined : sellerDeliveryMessages.declaredStockInvalid;
}

/** The owner's score floor as typed: a whole number from 0 to 100. */
export function scoreFloorProblem(value: string): string | undefined {
  const text = value.trim();
  return /^\d{1,3}$/.test(text) && Number(text) <= 100 ? undefined : SCORE_FLOOR_MESSAGE;
}

/**
 * A score from outcomes: 100 for every delivery on the first try, less 3 points per valid claim per 100
 * keys, up to 20 for a slow p90 provide (beyond 10 s, a point per 2 s), and up to 20 for refunds (2 points
 * per refund per 100 keys); then smoothed toward 90 as if the seller had 10 deliveries at 90.
 */
export function scoreValue(figures: { onFirstTry: number; p90ProvideSeconds: number; claimsPer100: number; refunds: number; deliveries: number; keys: number }): number {
  const raw =
    100 * figures.onFirstTry -
    3 * figures.claimsPer100 -
    Math.min(20, Math.max(0, figures.p90ProvideSeconds - 10) / 2) -
    Math.min(20, (2 * 100 * figures.refunds) / Math.max(figures.keys, 1));
  const bounded = Math.max(0, Math.min(100, raw));
  return Math.round((figures.deliveries * bounded + SCORE_PRIOR_WEIGHT * SCORE_PRIOR) / (figures.deliveries + SCORE_PRIOR_WEIGHT));
}
