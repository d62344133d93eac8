// Notifications (SPEC §2 dropdown, §3 Notification, §7 calls; DESIGN §4 stream): the zod schemas of
// the answers and the admin request. Limits and texts are zod-free, in notification-rules.ts.
//
// Time: `generatedAt` is the creation time as an ISO 8601 string (UTC) and `rawTimestamp` the same
// instant in epoch milliseconds. The server sends no display string: 'HH:MM DD.MM.YY' depends on the
// reader's time zone, so the web app formats `rawTimestamp` in the browser (formatNotificationTime).
import { z } from 'zod';
import { idField, safeText, trimmedRuled } from './fields.ts';
import { notificationMessages, notificationTextProblem, notificationTitleProblem } from './notification-rules.ts';

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

/** POST /api/admin/notifications: a public notification written by an admin, checked by the rules its form uses. */
export const adminNotificationRequestSchema = z.object({
  title: trimmedRuled(notificationTitleProblem, notificationMessages.titleRequired),
  text: trimmedRuled(notificationTextProblem, notificationMessages.textRequired),
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
