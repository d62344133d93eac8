// The back office's reads and writes of accounts (issue 15): the searchable list, the dashboard's
// customer counts, blocking, and the role change that never leaves the store without an admin.
import { and, count, desc, eq, gte, ilike, isNull, lt, or, sql } from 'drizzle-orm';
import { adminMessages, type Role } from '@keystore/contract';
import type { Db } from '../../db/client.ts';
import { users } from './schema.ts';
import { Conflict } from '../../platform/errors.ts';
import type { UserRow } from './store.ts';

/** A LIKE pattern matching `text` anywhere, its own % and _ taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** One page of the accounts whose e-mail or username contains `q`, newest first, and how many match. */
export async function userPage(db: Db, q: string | undefined, page: number, pageSize: number): Promise<{ rows: UserRow[]; total: number }> {
  const where = q ? or(ilike(users.email, containing(q)), ilike(users.username, containing(q)), eq(users.id, q)) : undefined;
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

/** Customers in all, and those who signed up between two instants. */
export async function customerCounts(db: Db, from: Date, to: Date): Promise<{ total: number; new: number }> {
  const [row] = await db
    .select({
      total: count(),
      new: sql<number>`count(*) filter (where ${and(gte(users.createdAt, from), lt(users.createdAt, to))})::int`,
    })
    .from(users)
    .where(eq(users.role, 'customer'));
  return { total: row?.total ?? 0, new: Number(row?.new ?? 0) };
}

/** Blocks (now) or unblocks an account; answers the row as it was before, or undefined when there is none. */
export async function setBlocked(db: Db, id: string, blocked: boolean): Promise<UserRow | undefined> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!before) return undefined;
    if (blocked !== (before.blockedAt !== null)) {
      await tx.update(users).set({ blockedAt: blocked ? new Date() : null, updatedAt: new Date() }).where(eq(users.id, id));
    }
    return before;
  });
}

/**
 * Sets an account's role; taking the admin role from the last admin is a Conflict. Every admin row is
 * locked first, so two admins demoting each other at once cannot both succeed and leave none.
 */
export async function changeRole(db: Db, id: string, role: Role): Promise<UserRow | undefined> {
  return db.transaction(async (tx) => {
    const admins = await tx.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).orderBy(users.id).for('update');
    const [before] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!before) return undefined;
    if (before.role === 'admin' && role !== 'admin' && admins.length <= 1) throw new Conflict(adminMessages.lastAdmin);
    if (before.role !== role) await tx.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, id));
    return before;
  });
}

/** The e-mail addresses of every admin not blocked (operator alerts). */
export async function adminEmails(db: Db): Promise<string[]> {
  return (await admins(db)).map((row) => row.email);
}

/** The admins not blocked: who hears of what needs the owner (alerts, orders held for review). */
export function admins(db: Db): Promise<Array<{ id: string; email: string }>> {
  return db.select({ id: users.id, email: users.email }).from(users).where(and(eq(users.role, 'admin'), isNull(users.blockedAt)));
}
