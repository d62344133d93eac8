import { sql } from 'drizzle-orm';
import { check, index, pgTable, text } from 'drizzle-orm/pg-core';
import { moment } from '../../db/columns.ts';
import { users } from '../users/schema.ts';

/** Messages sent through the support form, kept whether or not the e-mail to support went out. */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    ip: text('ip'),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    /** `open` until an admin answers it from the back office. */
    status: text('status').$type<'open' | 'answered'>().notNull().default('open'),
    reply: text('reply'),
    answeredAt: moment('answered_at'),
    answeredBy: text('answered_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    index('support_messages_created_idx').on(table.createdAt),
    check('support_messages_status_check', sql`${table.status} in ('open', 'answered')`),
  ],
);
