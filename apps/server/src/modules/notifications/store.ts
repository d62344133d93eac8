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

/** `insertAndNotify` for many rows in one statement (a batch of wishlist alerts): each row announced on its own. */
export async function insertAndNotifyMany(db: Db, rows: readonly NotificationRow[], channel: string, payloads: readonly string[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <T>(pick: (row: NotificationRow) => T, type: string) => sql`array[${sql.join(rows.map((row) => sql`${pick(row)}`), sql`, `)}]::${sql.raw(type)}`;
  await db.execute(sql`
    with inserted as (
      insert into ${notifications} (id, user_id, title, text, kind, link, created_at)
      select * from unnest(${column((row) => row.id, 'text[]')}, ${column((row) => row.userId, 'text[]')}, ${column((row) => row.title, 'text[]')},
                           ${column((row) => row.text, 'text[]')}, ${column((row) => row.kind, 'text[]')}, ${column((row) => row.link, 'text[]')},
                           ${column((row) => row.createdAt.toISOString(), 'timestamptz[]')})
      returning id
    )
    select pg_notify(${channel}, payload) from unnest(${sql`array[${sql.join(payloads.map((payload) => sql`${payload}`), sql`, `)}]::text[]`}) as payload
    where (select count(*) from inserted) > 0`);
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
