// Data access of the notifications module: its own two tables only.
import { and, desc, eq, gte, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notificationReads, notifications } from './schema.ts';

export type NotificationRow = typeof notifications.$inferSelect;
export type NotificationWithRead = NotificationRow & { isRead: boolean };

/**
 * Stores a notification and NOTIFYs `channel` with `payload` in one statement: one round trip on the
 * paths that create them (a purchase among them), and the notice goes out only if the row is committed.
 */
export async function insertAndNotify(db: Db, row: NotificationRow, channel: string, payload: string): Promise<void> {
  await db.execute(sql`
    with inserted as (
      insert into ${notifications} (id, user_id, title, text, kind, link, created_at)
      values (${row.id}, ${row.userId}, ${row.title}, ${row.text}, ${row.kind}, ${row.link}, ${row.createdAt.toISOString()}::timestamptz)
      returning id
    )
    select pg_notify(${channel}, ${payload}) from inserted`);
}

/** A user's list: public notifications, and their own created on or after `personalSince`, newest first. */
export function notificationsOfUser(db: Db, userId: string, personalSince: Date, limit: number): Promise<NotificationWithRead[]> {
  return db
    .select({ ...allColumns, isRead: sql<boolean>`${notificationReads.readAt} is not null` })
    .from(notifications)
    .leftJoin(notificationReads, and(eq(notificationReads.notificationId, notifications.id), eq(notificationReads.userId, userId)))
    .where(or(isNull(notifications.userId), and(eq(notifications.userId, userId), gte(notifications.createdAt, personalSince))))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
}

export function publicNotifications(db: Db, limit: number): Promise<NotificationRow[]> {
  return db
    .select()
    .from(notifications)
    .where(isNull(notifications.userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
}

/**
 * Every notification created at or after `since`, oldest first: what a stream listener that lost its
 * connection replays (bounded: an outage long enough to pass it is covered by the lists' next fetch).
 */
export function notificationsCreatedSince(db: Db, since: Date, limit: number): Promise<NotificationRow[]> {
  return db.select().from(notifications).where(gte(notifications.createdAt, since)).orderBy(notifications.createdAt, notifications.id).limit(limit);
}

/** The notification if `userId` may see it (public, or their own), else undefined. */
export async function visibleNotification(db: Db, id: string, userId: string): Promise<NotificationRow | undefined> {
  const [row] = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.id, id), or(isNull(notifications.userId), eq(notifications.userId, userId))));
  return row;
}

/** Records the read; reading twice keeps the first time. */
export async function markRead(db: Db, userId: string, notificationId: string): Promise<void> {
  await db.insert(notificationReads).values({ userId, notificationId }).onConflictDoNothing();
}

const allColumns = {
  id: notifications.id,
  userId: notifications.userId,
  title: notifications.title,
  text: notifications.text,
  kind: notifications.kind,
  link: notifications.link,
  createdAt: notifications.createdAt,
};
