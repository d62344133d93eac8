// The support_messages table: every message sent through the form, kept whether or not its e-mail goes out.
import { count, desc, eq } from 'drizzle-orm';
import type { FeedbackRequest, SupportStatus } from '@keystore/contract';
import type { Database, Db } from '../../db/client.ts';
import { supportMessages } from './schema.ts';
import { newId } from '../../platform/ids.ts';

/** A message of the form, with the account it was sent from (if any) and the client address. */
export type NewSupportMessage = FeedbackRequest & { userId: string | undefined; ip: string };

/** Stores a form message and answers its id. */
export async function insertSupportMessage(database: Database, message: NewSupportMessage): Promise<string> {
  const id = newId(16);
  await database.db.insert(supportMessages).values({ id, ...message, userId: message.userId ?? null });
  return id;
}

/** How many form messages no admin has answered yet. */
export async function openMessageCount(database: Database): Promise<number> {
  const [row] = await database.db.select({ n: count() }).from(supportMessages).where(eq(supportMessages.status, 'open'));
  return row?.n ?? 0;
}

export type SupportMessageRow = typeof supportMessages.$inferSelect;

/** One page of the form's messages, newest first, of one status or all. */
export async function supportMessagePage(db: Db, status: SupportStatus | undefined, page: number, pageSize: number): Promise<{ rows: SupportMessageRow[]; total: number }> {
  const where = status ? eq(supportMessages.status, status) : undefined;
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(supportMessages)
      .where(where)
      .orderBy(desc(supportMessages.createdAt), desc(supportMessages.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(supportMessages).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

/** The message, locked until the transaction ends (one reply at a time). */
export async function lockSupportMessage(tx: Db, id: string): Promise<SupportMessageRow | undefined> {
  const [row] = await tx.select().from(supportMessages).where(eq(supportMessages.id, id)).for('update');
  return row;
}

export async function markAnswered(tx: Db, id: string, reply: string, adminId: string): Promise<SupportMessageRow> {
  const [row] = await tx.update(supportMessages).set({ status: 'answered', reply, answeredAt: new Date(), answeredBy: adminId }).where(eq(supportMessages.id, id)).returning();
  return row!;
}
