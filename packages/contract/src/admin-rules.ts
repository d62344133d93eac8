// The back office without zod (issue 15): its limits, defaults and every text it answers or shows.
// Imported by the schemas in admin.ts, the server and the admin's web chunk (`@keystore/contract/admin-rules`).

/** Rows per page of the back office's tables, and the most a caller may ask for. */
export const ADMIN_PAGE_SIZE = 25;
export const ADMIN_MAX_PAGE_SIZE = 100;
/** The dashboard's default period: the last 30 days. */
export const ADMIN_STATS_DEFAULT_DAYS = 30;
/** The dashboard's longest period, so one request never reads years of orders day by day. */
export const ADMIN_STATS_MAX_DAYS = 366;
export const ADMIN_TOP_GAMES = 10;
/** The store's markup over the supplier's price stays "small" (the terms): 0 to 30 %. */
/** The most each guest limit may be set to: euro per order, copies of a title (a line's 10), orders per e-mail per day. */
export const GUEST_LIMIT_MAX = { maxOrderEuro: 10_000, maxCopies: 10, ordersPerDay: 100 } as const;

/** What a guest may buy unless the owner sets otherwise (issue 29): euro per order, copies of a title, orders per e-mail per 24 hours. */
export const GUEST_LIMIT_DEFAULTS = { maxOrderEuro: 150, maxCopies: 2, ordersPerDay: 3 } as const;

export const MARKUP_PERCENT_MIN = 0;
export const MARKUP_PERCENT_MAX = 30;
export const ADMIN_REASON_MAX = 500;
export const SUPPORT_REPLY_MAX = 5000;
/** A paid order still undelivered this long after payment alerts the operators. */
export const UNDELIVERED_ALERT_MINUTES = 10;
/** A paid order still without its keys this long after payment is refunded by the store itself. */
export const UNDELIVERED_REFUND_HOURS = 24;
/** At most one alert mail per cause in this time. */
export const ALERT_INTERVAL_MINUTES = 60;
/** How many characters of a key an admin sees (the last ones): never the whole key. */
export const MASKED_KEY_VISIBLE = 4;

export const AUDIT_ACTIONS = [
  'order.refund',
  'order.resend',
  'order.retry-delivery',
  'order.approve',
  'order.cancel',
  'user.role',
  'user.block',
  'user.unblock',
  'game.update',
  'settings.update',
  'catalog.sync',
  'support.reply',
  'news.publish',
  'notification.publish',
  'seller.update',
  'payout.run',
  'payout.paid',
  'claim.decide',
  'risk.rules',
  'risk.disposable-domains',
  'risk.block',
  'risk.unblock',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const SUPPORT_STATUSES = ['open', 'answered'] as const;
export type SupportStatus = (typeof SUPPORT_STATUSES)[number];

/** Every text of the back office's API and screens. */
export const adminMessages = {
  signInRequired: 'Please log in to continue.',
  adminsOnly: 'This page is for the store’s administrators.',
  orderNotFound: 'Order not found',
  userNotFound: 'User not found',
  gameNotFound: 'Game not found',
  supportMessageNotFound: 'Support message not found',
  refundNotAllowed: 'Only a paid order can be refunded.',
  resendNotAllowed: 'Only a paid order whose keys were delivered can be sent again.',
  retryNotAllowed: 'Only a paid order whose keys are not all delivered can be retried.',
  lastAdmin: 'You are the last administrator: make someone else an administrator first.',
  ownBlock: 'You cannot block your own account.',
  accountBlocked: 'This account is blocked. Please contact support.',
  markupRange: `Markup must be between ${MARKUP_PERCENT_MIN} and ${MARKUP_PERCENT_MAX} %.`,
  guestLimitRange: 'Guest limits must be whole numbers of at least 0 (euro up to 10,000; copies up to 10; orders up to 100 a day)',
  priceOverridePositive: 'A price must be more than 0.',
  dateInvalid: 'Dates must be written as YYYY-MM-DD.',
  periodInvalid: `The period must start before it ends and span at most ${ADMIN_STATS_MAX_DAYS} days.`,
  reasonTooLong: `A reason must be at most ${ADMIN_REASON_MAX} characters.`,
  replyRequired: 'Please write a reply.',
  replyTooLong: `A reply must be at most ${SUPPORT_REPLY_MAX} characters.`,
  syncStarted: 'A catalogue sync has started.',
  syncRunning: 'A catalogue sync is already running.',
  resent: 'The receipt with the keys was sent to the buyer again.',
  retryStarted: 'The delivery is being tried again.',
  replied: 'Your reply was sent.',
} as const;

/** A key as an admin may see it: a fixed run of dots and its last characters, so neither the key nor its length shows. */
export function maskKey(key: string): string {
  return `${'•'.repeat(8)}${key.slice(-MASKED_KEY_VISIBLE)}`;
}

/**
 * A CSV cell that a spreadsheet will not run as a formula (OWASP CSV injection): a cell starting with
 * = + - @ (or a tab or carriage return) gets a leading apostrophe.
 */
export function csvSafe(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

// The back office's form rules, for its forms (byRule): the schemas in admin.ts answer the same texts.

/** Why an order action's optional reason is refused, or undefined. */
export function adminReasonProblem(reason: string): string | undefined {
  return reason.trim().length > ADMIN_REASON_MAX ? adminMessages.reasonTooLong : undefined;
}

/** Why a support reply is refused, or undefined. */
export function supportReplyProblem(reply: string): string | undefined {
  const text = reply.trim();
  if (text.length === 0) return adminMessages.replyRequired;
  return text.length > SUPPORT_REPLY_MAX ? adminMessages.replyTooLong : undefined;
}

/** Why a markup, as typed, is refused, or undefined. */
export function markupProblem(value: string): string | undefined {
  const percent = Number(value);
  return value.trim() === '' || !Number.isFinite(percent) || percent < MARKUP_PERCENT_MIN || percent > MARKUP_PERCENT_MAX ? adminMessages.markupRange : undefined;
}

/** Why a price override, as typed, is refused, or undefined; an empty field removes the override. */
export function priceOverrideProblem(value: string): string | undefined {
  if (value.trim() === '') return undefined;
  const price = Number(value);
  return Number.isFinite(price) && price > 0 ? undefined : adminMessages.priceOverridePositive;
}

/** A guest limit as typed: a whole number from 0 to `max`, else the rule's message. */
export function guestLimitProblem(value: string, max: number): string | undefined {
  const number = Number(value.trim());
  return value.trim() === '' || !Number.isInteger(number) || number < 0 || number > max ? adminMessages.guestLimitRange : undefined;
}
