import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validationMessages } from '@keystore/contract';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { HttpError } from '../../platform/errors.ts';
import { freshDatabase, testConfig } from '../../test/helper.ts';
import { UsersService, type PurchaseStats } from './service.ts';

let database: Database;
let users: UsersService;
let config: Config;
let cleanup: () => void;

beforeAll(async () => {
  database = await freshDatabase();
  ({ config, cleanup } = testConfig());
  users = new UsersService(database, config);
});

afterAll(async () => {
  await database.close();
  cleanup();
});

const account = (name: string) => ({ username: name, email: `${name.toLowerCase()}@gmail.com`, passwordHash: 'not-a-real-hash' });

/** The message and status a call failed with. */
async function failure(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(error)}`);
  return { status: error.status, message: error.message };
}

describe('UsersService', () => {
  it('creates an unverified customer and finds it by e-mail and id', async () => {
    const created = await users.create(account('Alice'));
    expect(created).toMatchObject({ username: 'Alice', email: 'alice@gmail.com', role: 'customer', emailVerifiedAt: null, avatar: null });
    expect(created.id).toMatch(/^[a-z0-9]{16}$/);
    expect(await users.findByEmail('alice@gmail.com')).toEqual(created);
    expect(await users.findById(created.id)).toEqual(created);
    expect(await users.findByEmail('nobody@gmail.com')).toBeUndefined();
  });

  it('creates a verified admin when asked', async () => {
    const admin = await users.create({ ...account('Boss'), role: 'admin', verified: true });
    expect(admin.role).toBe('admin');
    expect(admin.emailVerifiedAt).toBeInstanceOf(Date);
  });

  it('knows taken usernames whatever their case, and taken e-mails', async () => {
    await users.create(account('Carol'));
    expect(await users.isUsernameTaken('cAROL')).toBe(true);
    expect(await users.isUsernameTaken('Caroline')).toBe(false);
    expect(await users.isEmailTaken('carol@gmail.com')).toBe(true);
    expect(await users.isEmailTaken('caroline@gmail.com')).toBe(false);
  });

  it('refuses a second account with the same e-mail or username, also when both race', async () => {
    await users.create(account('Dave'));
    expect(await failure(users.create({ ...account('Dave2'), email: 'dave@gmail.com' }))).toEqual({
      status: 409,
      message: validationMessages.emailTaken,
    });
    expect(await failure(users.create({ ...account('DAVE'), email: 'other-dave@gmail.com' }))).toEqual({
      status: 409,
      message: validationMessages.usernameTaken,
    });
    const racing = await Promise.allSettled([users.create(account('Erin')), users.create(account('Erin'))]);
    expect(racing.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const lost = racing.find((result) => result.status === 'rejected');
    expect(lost?.reason).toBeInstanceOf(HttpError);
    expect((lost?.reason as HttpError).status).toBe(409);
  });

  it('marks the e-mail verified and stores a new password hash', async () => {
    const frank = await users.create(account('Frank'));
    await users.markEmailVerified(frank.id);
    await users.setPasswordHash(frank.id, 'another-hash');
    const stored = await users.findById(frank.id);
    expect(stored?.emailVerifiedAt).toBeInstanceOf(Date);
    expect(stored?.passwordHash).toBe('another-hash');
  });

  it('shows a new customer with nothing bought yet', async () => {
    const grace = await users.create(account('Grace'));
    expect(await users.profile(grace)).toEqual({
      _id: grace.id,
      username: 'Grace',
      email: 'grace@gmail.com',
      avatar: null,
      role: 'customer',
      createdAt: grace.createdAt.toISOString(),
      totalSpent: 0,
      totalGames: 0,
      membership: 'Key Newb',
      purchaseHistory: [],
    });
  });

  it('takes the purchase figures and the tier from the orders module once it is there', async () => {
    const heidi = await users.create(account('Heidi'));
    const purchases: PurchaseStats = {
      summaryFor: async () => ({ totalSpent: 260.5, totalGames: 7, purchaseHistory: [] }),
      figuresFor: async () => new Map(),
    };
    const withOrders = new UsersService(database, config, purchases);
    expect(await withOrders.profile(heidi)).toMatchObject({ totalSpent: 260.5, totalGames: 7, membership: 'Loot Veteran' });
  });
});
