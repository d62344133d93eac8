import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { moment } from '../../db/columns.ts';
import { orders } from '../orders/schema.ts';
import { users } from '../users/schema.ts';

/**
 * An order bought for someone else (issue 29): its recipient (e-mail, lowercased, and name), the
 * buyer's message, and who sent it. The order's keys are the recipient's: held by no account until one
 * proves the e-mail (`recipient_user_id`), never the buyer's to reveal.
 */
export const gifts = pgTable(
  'gifts',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name').notNull(),
    message: text('message').notNull().default(''),
    /** The buyer's account, when it bought signed in; its name as the recipient is told. */
    senderUserId: text('sender_user_id').references(() => users.id, { onDelete: 'set null' }),
    senderName: text('sender_name'),
    recipientUserId: text('recipient_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    /** When the recipient's mail was written (with the order's delivery). */
    mailedAt: moment('mailed_at'),
    /** The recipient's first reveal of a key. */
    revealedAt: moment('revealed_at'),
  },
  (table) => [
    uniqueIndex('gifts_order_idx').on(table.orderId),
    index('gifts_sender_idx').on(table.senderUserId),
    index('gifts_unclaimed_email_idx').on(table.email).where(sql`${table.recipientUserId} is null`),
  ],
);
