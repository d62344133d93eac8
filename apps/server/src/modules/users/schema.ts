import { sql } from 'drizzle-orm';
import { pgTable, pgView, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { Role } from '@keystore/contract';
import { moment } from '../../db/columns.ts';

/** Customers and admins. E-mails are stored lowercase; usernames are unique without regard to case. */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').$type<Role>().notNull().default('customer'),
    emailVerifiedAt: moment('email_verified_at'),
    /** File name of the re-encoded avatar (`images` row `avatars/<file>`), or null for the default icon. */
    avatar: text('avatar'),
    /** Set by an admin: the account's sessions end and it cannot sign in until unblocked. */
    blockedAt: moment('blocked_at'),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    updatedAt: moment('updated_at').notNull().default(sql`now()`),
  },
  (table) => [uniqueIndex('users_email_idx').on(table.email), uniqueIndex('users_username_lower_idx').on(sql`lower(${table.username})`)],
);

/**
 * The read model other modules may read of an account (decision 033): who it is, its role and whether it
 * is blocked. A view, so a reader's query stays one statement and the columns behind it stay ours.
 */
export const userFacts = pgView('user_facts').as((qb) =>
  qb.select({ id: users.id, email: users.email, username: users.username, role: users.role, blockedAt: users.blockedAt, createdAt: users.createdAt, emailVerifiedAt: users.emailVerifiedAt }).from(users),
);
