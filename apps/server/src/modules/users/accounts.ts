import type { Database, Db } from '../../db/client.ts';
import { findUserByEmail, findUserById, type UserRow } from './store.ts';

/**
 * Who an account is, for the modules that write to or about a customer (orders, notifications). Apart
 * from UsersService, whose profile needs the orders module's figures: it is built before them.
 */
export class Accounts {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  findById(id: string): Promise<UserRow | undefined> {
    return findUserById(this.database.db, id);
  }

  /** The account that has proved `email` (verified it), if there is one: what is bought for that e-mail is its. In the caller's transaction, when it has one. */
  async verifiedByEmail(email: string, db: Db = this.database.db): Promise<UserRow | undefined> {
    const user = await findUserByEmail(db, email);
    return user?.emailVerifiedAt ? user : undefined;
  }
}
