import { eq, getTableColumns, sql } from 'drizzle-orm';
import { preparedOnce, type Db } from '../../db/client.ts';
import { users } from './schema.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

const userById = preparedOnce((db) => db.select().from(users).where(eq(users.id, sql.placeholder('id'))).limit(1).prepare('user_by_id'));

/** A user by id: asked by every authenticated request (the role), so prepared once. */
export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await userById(db).execute({ id });
  return row;
}

/** Whether a username is in use, ignoring case (the unique index is on lower(username)). */
export async function usernameExists(db: Db, username: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1);
  return rows.length > 0;
}

export async function emailExists(db: Db, email: string): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  return rows.length > 0;
}

export async function insertUser(db: Db, row: NewUserRow): Promise<UserRow> {
  const [inserted] = await db.insert(users).values(row).returning();
  return inserted!;
}

export async function updateUser(db: Db, id: string, set: Partial<Pick<UserRow, 'emailVerifiedAt' | 'passwordHash' | 'role'>>): Promise<void> {
  await db
    .update(users)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(users.id, id));
}

/**
 * Points the user at a new avatar file and answers the row with the file it replaced, in one
 * statement. The old value is read under a row lock, so two uploads racing each get the other's
 * file to remove, and a deletion racing it either waits for it or leaves it nothing to point.
 */
export async function replaceAvatar(db: Db, id: string, file: string): Promise<{ row: UserRow; previous: string | null } | undefined> {
  const [answer] = await db
    .update(users)
    .set({ avatar: file, updatedAt: new Date() })
    .from(sql`(select ${users.avatar} as previous from ${users} where ${users.id} = ${id} for update) as old`)
    .where(eq(users.id, id))
    .returning({ row: getTableColumns(users), previous: sql<string | null>`old.previous` });
  return answer;
}

/** Deletes the user; sessions, codes and trusted addresses go with it (foreign keys cascade). */
export async function deleteUser(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.delete(users).where(eq(users.id, id)).returning();
  return row;
}
