// Notifications (SPEC §2 dropdown, §3 Notification, §7 calls; DESIGN §4 stream): the answers, the
// admin request, the texts of event notifications and the two demo notifications visitors see when
// the public list cannot be fetched.
//
// Time: `generatedAt` is the creation time as an ISO 8601 string (UTC) and `rawTimestamp` the same
// instant in epoch milliseconds. The server sends no display string: 'HH:MM DD.MM.YY' depends on the
// reader's time zone, so the web app formats `rawTimestamp` in the browser (formatNotificationTime).
import { z } from 'zod';
import { idField, safeText } from './fields.ts';
// The collapsed count and the demo notifications live in constants.ts: the web app's header needs them without zod.

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

/** SPEC §3 Notification. `link` is a page of the store the notification is about, or null. */
export const notificationSchema = z
  .object({
    _id: z.string(),
    title: z.string(),
    text: z.string(),
    generatedAt: z.string().meta({ description: 'ISO 8601 creation time (UTC); display it as HH:MM DD.MM.YY in local time' }),
    rawTimestamp: z.number().int().meta({ description: 'The creation time in epoch milliseconds' }),
    isRead: z.boolean(),
    isPublic: z.boolean(),
    link: z.string().nullable(),
  })
  .meta({ id: 'Notification' });
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListSchema = z.array(notificationSchema).meta({ id: 'NotificationList' });

export const notificationIdParamsSchema = z.object({ id: idField(notificationMessages.notFound) });

const requiredText = (max: number, required: string, tooLong: string) =>
  safeText(required).trim().min(1, required).max(max, tooLong);

/** POST /api/admin/notifications: a public notification written by an admin. */
export const adminNotificationRequestSchema = z.object({
  title: requiredText(NOTIFICATION_TITLE_MAX, notificationMessages.titleRequired, notificationMessages.titleTooLong),
  text: requiredText(NOTIFICATION_TEXT_MAX, notificationMessages.textRequired, notificationMessages.textTooLong),
});
export type AdminNotificationRequest = z.input<typeof adminNotificationRequestSchema>;

/**
 * GET /api/notifications/stream query: EventSource cannot send headers, so credentials may come
 * here: a stream ticket (never the session token, which would land in logs and proxies), or a
 * visitor's session id.
 */
export const notificationStreamQuerySchema = z.object({
  ticket: safeText().max(1024).optional(),
  sessionId: safeText().max(128).optional(),
});

/** POST /api/notifications/stream-ticket: what opens the caller's stream once, within `expiresInSeconds`. */
export const streamTicketSchema = z.object({ ticket: z.string(), expiresInSeconds: z.number().int() }).meta({ id: 'StreamTicket' });
export type StreamTicket = z.infer<typeof streamTicketSchema>;

/** What made a notification (the `kind` column). */
export type NotificationKind = 'admin' | 'news' | 'order-paid' | 'keys-delivered' | 'payment-declined' | 'password-changed' | 'new-device';

/** The texts of the notifications events create. */
export const notificationTexts = {
  orderPaid: (amount: string) => ({ title: 'Order paid', text: `We received your payment of ${amount}. Your keys are on their way.` }),
  keysDelivered: (count: number) => ({
    title: 'Keys delivered',
    text: `${count === 1 ? 'Your key is' : `Your ${count} keys are`} ready to reveal in your library.`,
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
} as const;
