// Notifications without zod: the list's limits, the API's messages and the texts of the notifications
// events create. Imported by the schemas in notifications.ts, the server and the web app alike
// (`@keystore/contract/notification-rules`).

/** The newest this many notifications are listed; older ones are not shown. */
export const NOTIFICATIONS_LIST_LIMIT = 50;
export const NOTIFICATION_TITLE_MAX = 120;
export const NOTIFICATION_TEXT_MAX = 1000;
/** Seconds between heartbeat comments on the live stream, so proxies keep an idle stream open. */
export const NOTIFICATION_HEARTBEAT_SECONDS = 25;

export const notificationMessages = {
  notFound: 'Notification not found',
  titleRequired: 'Title is required',
  titleTooLong: `Title cannot exceed ${NOTIFICATION_TITLE_MAX} characters`,
  textRequired: 'Text is required',
  textTooLong: `Text cannot exceed ${NOTIFICATION_TEXT_MAX} characters`,
  streamAuthRequired: 'A token or a session id is required',
  streamsBusy: 'Too many live connections. Please try again later.',
  tooManyStreams: 'Too many live connections from this account or network. Close another tab of the store and try again.',
} as const;

/** Why an admin's notification title is refused, or undefined (the form's rule; the schema answers the same). */
export function notificationTitleProblem(title: string): string | undefined {
  const text = title.trim();
  if (text.length === 0) return notificationMessages.titleRequired;
  return text.length > NOTIFICATION_TITLE_MAX ? notificationMessages.titleTooLong : undefined;
}

/** Why an admin's notification text is refused, or undefined. */
export function notificationTextProblem(body: string): string | undefined {
  const text = body.trim();
  if (text.length === 0) return notificationMessages.textRequired;
  return text.length > NOTIFICATION_TEXT_MAX ? notificationMessages.textTooLong : undefined;
}

/** What made a notification (the `kind` column). */
export type NotificationKind = 'admin' | 'news' | 'order-paid' | 'keys-delivered' | 'payment-declined' | 'password-changed' | 'new-device' | 'seller-alert' | 'claim' | 'order-review' | 'wishlist-alert';

/** The texts of the notifications events create. */
export const notificationTexts = {
  orderPaid: (amount: string) => ({ title: 'Order paid', text: `We received your payment of ${amount}. Your keys are on their way.` }),
  keysDelivered: (count: number) => ({
    title: 'Keys delivered',
    text: `${count === 1 ? 'Your key is' : `Your ${count} keys are`} ready to reveal in your library.`,
  }),
  /** A gift's keys went to its recipient (issue 29): its buyer is told, never offered them. */
  giftDelivered: (count: number) => ({
    title: 'Gift delivered',
    text: `Your gift of ${count === 1 ? 'one key' : `${count} keys`} is delivered: we have e-mailed its recipient your message and a link to reveal ${count === 1 ? 'it' : 'them'}.`,
  }),
  paymentDeclined: (reason: string | null) => ({
    title: 'Payment declined',
    text: `Your payment was declined${reason ? `: ${reason.replace(/\.$/, '')}` : ''}. Nothing was charged; you can place the order again.`,
  }),
  passwordChanged: { title: 'Password changed', text: 'Your password was changed. If it was not you, reset it now and contact support.' },
  newDevice: (ip: string) => ({
    title: 'Login from a new device',
    text: `Someone signed in with your password from a new address (${ip}). A verification code was sent to your e-mail.`,
  }),
  news: (title: string) => ({ title: 'News', text: title }),
  /** To each admin, an order held by the risk desk (issue 29). */
  orderInReview: (amount: string, score: number) => ({ title: 'Order waiting for review', text: `An order of ${amount} was held for review (risk score ${score}). Approve or cancel it.` }),
} as const;
