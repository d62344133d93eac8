import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { moment } from '../../db/columns.ts';
import { users } from '../users/schema.ts';

/**
 * Notifications: public ones (userId null) for everyone, personal ones for one account,
 * made by events (order paid, keys delivered, payment declined, password changed, new device).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    text: text('text').notNull(),
    /** What made it: 'admin', 'news', 'order-paid', 'keys-delivered', 'payment-declined', 'password-changed', 'new-device'. */
    kind: text('kind').notNull(),
    /** A page of the store it is about (/news/{id}, /library), or null. */
    link: text('link'),
    createdAt: moment('created_at').notNull().default(sql`now()`),
  },
  (table) => [index('notifications_user_created_idx').on(table.userId, table.createdAt)],
);

/** Which notifications a signed-in user has read (visitors keep theirs in localStorage). */
export const notificationReads = pgTable(
  'notification_reads',
  {
    notificationId: text('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    readAt: moment('read_at').notNull().default(sql`now()`),
  },
  (table) => [primaryKey({ columns: [table.userId, table.notificationId] })],
);
