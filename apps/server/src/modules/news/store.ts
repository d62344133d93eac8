import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { news } from './schema.ts';

export type NewsRow = typeof news.$inferSelect;
export type NewNewsRow = typeof news.$inferInsert;

/** Every news item, newest first (the id breaks ties of one instant, so the order is stable). */
export function listNews(db: Db): Promise<NewsRow[]> {
  return db.select().from(news).orderBy(desc(news.createdAt), desc(news.id));
}

export async function findNews(db: Db, id: string): Promise<NewsRow | undefined> {
  const [row] = await db.select().from(news).where(eq(news.id, id)).limit(1);
  return row;
}

export async function insertNews(db: Db, row: NewNewsRow): Promise<NewsRow> {
  const [inserted] = await db.insert(news).values(row).returning();
  return inserted!;
}
