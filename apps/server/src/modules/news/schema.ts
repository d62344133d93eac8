import { sql } from 'drizzle-orm';
import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { moment } from '../../db/columns.ts';
import { users } from '../users/schema.ts';

/**
 * News. `author` is 'Admin' for manual news, 'ChatGPT' for news written by the AI
 * provider, 'Keystore AI' for the offline generator's. The cover is the file name of a re-encoded
 * WebP (`images` row `news/<file>`) or null for the placeholder.
 */
export const news = pgTable(
  'news',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull(),
    category: text('category').notNull(),
    content: text('content').notNull(),
    coverImage: text('cover_image'),
    author: text('author').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: moment('created_at').notNull().default(sql`now()`),
  },
  (table) => [index('news_created_idx').on(table.createdAt)],
);
