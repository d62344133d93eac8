import { accountMessages, adminMessages, membershipFor, validationMessages, type AdminUser, type AdminUserList, type AdminUserRow, type PurchaseHistoryEntry, type Role, type User } from '@keystore/contract';
import type { Config } from '../../config.ts';
import type { Database, Db } from '../../db/client.ts';
import { Conflict, HttpError, Invalid, NotFound, Unauthorized } from '../../platform/errors.ts';
import { adminEmails, admins, changeRole, customerCounts, setBlocked, userPage } from './admin-store.ts';
import { newId } from '../../platform/ids.ts';
import { UnreadableImage } from '../../platform/images.ts';
import { hashPassword, passwordMatches } from '../../platform/passwords.ts';
import { AvatarFiles } from './avatars.ts';
import {
  deleteUser,
  emailExists,
  findUserByEmail,
  findUserById,
  insertUser,
  replaceAvatar,
  updateUser,
  usernameExists,
  type UserRow,
} from './store.ts';

export type { UserRow } from './store.ts';

/** What a customer has bought so far, as the profile shows it. */
export interface PurchaseSummary {
  totalSpent: number;
  totalGames: number;
  purchaseHistory: PurchaseHistoryEntry[];
}

/** Where the profile's purchase figures come from (the orders module). */
export interface PurchaseStats {
  summaryFor(userId: string): Promise<PurchaseSummary>;
  /** Orders placed and euro paid and kept, per user (the back office's customer table). */
  figuresFor(userIds: string[]): Promise<Map<string, { orders: number; totalSpent: number }>>;
}

const NOTHING_BOUGHT: PurchaseSummary = { totalSpent: 0, totalGames: 0, purchaseHistory: [] };

export interface NewUser {
  username: string;
  /** Already lowercased (the contract's e-mail fields do it). */
  email: string;
  passwordHash: string;
  role?: Role;
  verified?: boolean;
}

/** Where avatar files are served from; the file name changes on every upload, so it can be cached for good. */
export const AVATAR_URL_PREFIX = '/media/avatars/';

/** Users: the account rows and the profile built from them. Sessions and codes belong to the auth module. */
export class UsersService {
  readonly avatars: AvatarFiles;
  private readonly database: Database;
  private readonly purchases: PurchaseStats | undefined;

  /** Without `purchases` (tests that only need accounts) every profile shows nothing bought. */
  constructor(database: Database, config: Config, purchases?: PurchaseStats) {
    this.database = database;
    this.avatars = new AvatarFiles(database.db, config.dataDir);
    this.purchases = purchases;
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return findUserByEmail(this.database.db, email);
  }

  findById(id: string): Promise<UserRow | undefined> {
    return findUserById(this.database.db, id);
  }

  /** Whether the username is in use by anyone, ignoring case. */
  isUsernameTaken(username: string): Promise<boolean> {
    return usernameExists(this.database.db, username);
  }

  isEmailTaken(email: string): Promise<boolean> {
    return emailExists(this.database.db, email);
  }

  /** Adds an account; a taken e-mail or username (also one taken a moment ago by a racing sign-up) is a Conflict. */
  async create(input: NewUser): Promise<UserRow> {
    const now = new Date();
    try {
      return await insertUser(this.database.db, {
        id: newId(),
        username: input.username,
        email: input.email,
        passwordHash: input.passwordHash,
        role: input.role ?? 'customer',
        emailVerifiedAt: input.verified ? now : null,
        createdAt: now,
        updatedAt: now,
      });
    } catch (error) {
      const constraint = uniqueViolation(error);
      if (constraint === 'users_email_idx') throw new Conflict(validationMessages.emailTaken);
      if (constraint === 'users_username_lower_idx') throw new Conflict(validationMessages.usernameTaken);
      throw error;
    }
  }

  async markEmailVerified(id: string): Promise<void> {
    await updateUser(this.database.db, id, { emailVerifiedAt: new Date() });
  }

  async setPasswordHash(id: string, passwordHash: string): Promise<void> {
    await updateUser(this.database.db, id, { passwordHash });
  }

  async setRole(id: string, role: Role): Promise<void> {
    await updateUser(this.database.db, id, { role });
  }

  /** Checks the current password, then stores the new one. Ending the other sessions is the caller's part. */
  async changePassword(id: string, currentPassword: string, newPassword: string): Promise<void> {
    const user = await this.findById(id);
    if (!user) throw new Unauthorized(accountMessages.sessionExpired);
    if (!(await passwordMatches(user.passwordHash, currentPassword))) throw new Invalid(accountMessages.currentPasswordWrong);
    await this.setPasswordHash(id, await hashPassword(newPassword));
  }

  /**
   * Replaces the avatar with an upload: decoded, squared and re-encoded to WebP under a new name.
   * The new file, the account's pointer to it and the old file's removal are one transaction, so
   * no file outlives its use, whatever stops halfway. Anything that is not a readable picture is a 415.
   */
  async changeAvatar(id: string, upload: Buffer): Promise<User> {
    let webp: Buffer;
    try {
      webp = await this.avatars.encode(upload);
    } catch (error) {
      if (error instanceof UnreadableImage) throw new HttpError(415, accountMessages.avatarUnreadable);
      throw error;
    }
    const row = await this.database.db.transaction(async (tx) => {
      const replaced = await replaceAvatar(tx, id, await this.avatars.store(id, webp, tx));
      // The account was deleted while the picture was being encoded: the new file goes with the rollback.
      if (!replaced) throw new Unauthorized(accountMessages.sessionExpired);
      await this.avatars.remove(replaced.previous, tx);
      return replaced.row;
    });
    return this.profile(row);
  }

  /**
   * Deletes the account with every avatar file it has (the one shown and any an interrupted upload
   * left), in one transaction, so that no instance serves them a moment later; sessions, codes and
   * trusted addresses go with the row (foreign keys cascade), so every token of the account stops
   * working at once. Orders are kept for the books, anonymised: their reference to the user is
   * `on delete set null`. Only with the account's password; answers who it was, for the notice mail.
   */
  async deleteAccount(id: string, currentPassword: string): Promise<{ email: string; username: string }> {
    const user = await this.findById(id);
    if (!user) throw new Unauthorized(accountMessages.sessionExpired);
    if (!(await passwordMatches(user.passwordHash, currentPassword))) throw new Invalid(accountMessages.currentPasswordWrong);
    const row = await this.database.db.transaction(async (tx) => {
      const deleted = await deleteUser(tx, id);
      if (deleted) await this.avatars.removeAllOf(id, tx);
      return deleted;
    });
    // Deleted meanwhile by another request of the same owner: that one answered and mailed.
    if (!row) throw new Unauthorized(accountMessages.sessionExpired);
    return { email: row.email, username: row.username };
  }

  /** One page of the back office's customer table: accounts whose e-mail or username contains `q`, newest first. */
  async adminList(q: string | undefined, page: number, pageSize: number): Promise<AdminUserList> {
    const { rows, total } = await userPage(this.database.db, q, page, pageSize);
    const figures = (await this.purchases?.figuresFor(rows.map((row) => row.id))) ?? new Map<string, { orders: number; totalSpent: number }>();
    return { items: rows.map((row) => adminRow(row, figures.get(row.id))), total, page, pageSize };
  }

  /** One account as the back office shows it, but its sign-ins (the auth module's). */
  async adminDetail(id: string): Promise<Omit<AdminUser, 'signIns'>> {
    const user = await this.findById(id);
    if (!user) throw new NotFound(adminMessages.userNotFound);
    const [profile, figures] = await Promise.all([this.profile(user), this.purchases?.figuresFor([id])]);
    return {
      ...adminRow(user, figures?.get(id)),
      totalSpent: profile.totalSpent,
      emailVerified: user.emailVerifiedAt !== null,
      membership: profile.membership,
      purchaseHistory: profile.purchaseHistory,
    };
  }

  /** Blocks or unblocks an account; answers it as it was (NotFound when there is none). Ending its sessions is the caller's part. */
  async setBlocked(id: string, blocked: boolean): Promise<UserRow> {
    const before = await setBlocked(this.database.db, id, blocked);
    if (!before) throw new NotFound(adminMessages.userNotFound);
    return before;
  }

  /** Changes an account's role, never taking it from the last admin (Conflict); answers it as it was. */
  async changeRole(id: string, role: Role): Promise<UserRow> {
    const before = await changeRole(this.database.db, id, role);
    if (!before) throw new NotFound(adminMessages.userNotFound);
    return before;
  }

  /** Where operator alerts go: every admin not blocked. */
  adminEmails(): Promise<string[]> {
    return adminEmails(this.database.db);
  }

  /** The admins not blocked, read in `db` (a transaction telling them of something). */
  admins(db: Db = this.database.db): Promise<Array<{ id: string; email: string }>> {
    return admins(db);
  }

  /** Customers in all, and those who signed up in [from, to). */
  customerCounts(from: Date, to: Date): Promise<{ total: number; new: number }> {
    return customerCounts(this.database.db, from, to);
  }

  /** The user as the API answers it: public avatar URL, purchase figures and the tier they earn. */
  async profile(user: UserRow): Promise<User> {
    const summary = this.purchases ? await this.purchases.summaryFor(user.id) : NOTHING_BOUGHT;
    return {
      _id: user.id,
      username: user.username,
      email: user.email,
      avatar: user.avatar ? `${AVATAR_URL_PREFIX}${user.avatar}` : null,
      role: user.role,
      createdAt: user.createdAt.toISOString(),
      totalSpent: summary.totalSpent,
      totalGames: summary.totalGames,
      membership: membershipFor(summary.totalSpent),
      purchaseHistory: summary.purchaseHistory,
    };
  }
}

/** The unique index a failed insert ran into, if that is why it failed (SQLSTATE 23505, both drivers). */
function uniqueViolation(error: unknown): string | undefined {
  // drizzle wraps the driver's error in DrizzleQueryError; the driver's error is its cause.
  for (let current = error; current instanceof Error; current = current.cause) {
    const { code, constraint } = current as Error & { code?: unknown; constraint?: unknown };
    if (code === '23505') return typeof constraint === 'string' ? constraint : '';
  }
  return undefined;
}

function adminRow(user: UserRow, figures: { orders: number; totalSpent: number } | undefined): AdminUserRow {
  return {
    _id: user.id,
    username: user.username,
    email: user.email,
    role: user.role,
    blocked: user.blockedAt !== null,
    createdAt: user.createdAt.toISOString(),
    orders: figures?.orders ?? 0,
    totalSpent: figures?.totalSpent ?? 0,
  };
}
