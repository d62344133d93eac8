// A stored notification as its reader sees it (SPEC §3), for the lists and the live streams.
import type { Notification } from '@keystore/contract';
import type { NotificationRow } from './store.ts';

/** A row as SPEC §3 Notification. */
export function toNotification(row: NotificationRow, isRead: boolean): Notification {
  return {
    _id: row.id,
    title: row.title,
    text: row.text,
    generatedAt: row.createdAt.toISOString(),
    rawTimestamp: row.createdAt.getTime(),
    isRead,
    isPublic: row.userId === null,
    link: row.link,
  };
}
