import type { Database } from '../../db/client.ts';
import { findUserById, type UserRow } from './store.ts';

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
}
