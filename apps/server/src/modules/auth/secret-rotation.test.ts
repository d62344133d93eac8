// Rotating JWT_SECRET: instances started with the new secret and JWT_SECRET_PREVIOUS still accept
// what the old secret signed (tokens, e-mailed codes), so a rolling restart logs nobody out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { latestCode, logIn, signedInUser } from '../../test/accounts.ts';
import { buildTestApp, freshDatabase, type TestApp } from '../../test/helper.ts';

const OLD_SECRET = 'the-old-secret-the-old-secret-the-old-01';
const NEW_SECRET = 'the-new-secret-the-new-secret-the-new-02';

let database: Database;
let before: TestApp;
let rotating: TestApp;
let rotated: TestApp;

beforeAll(async () => {
  database = await freshDatabase();
  before = await buildTestApp({ database, env: { JWT_SECRET: OLD_SECRET } });
  rotating = await buildTestApp({ database, env: { JWT_SECRET: NEW_SECRET, JWT_SECRET_PREVIOUS: OLD_SECRET } });
  rotated = await buildTestApp({ database, env: { JWT_SECRET: NEW_SECRET } });
});

afterAll(async () => {
  for (const t of [before, rotating, rotated]) await t?.close();
  await database?.close();
});

const profileStatus = async (t: TestApp, token: string) =>
  (await t.app.inject({ url: '/api/users/profile', headers: { authorization: `Bearer ${token}` } })).statusCode;

describe('JWT_SECRET_PREVIOUS', () => {
  it('keeps a token signed with the previous secret working; without it the token is refused', async () => {
    const customer = await signedInUser(before.app);
    expect(await profileStatus(rotating, customer.token)).toBe(200);
    expect(await profileStatus(rotated, customer.token)).toBe(401);
  });

  it('signs new tokens with the new secret only', async () => {
    const customer = await signedInUser(before.app);
    const { token } = await logIn(rotating.app, customer.email, customer.password);
    expect(await profileStatus(rotated, token)).toBe(200);
    expect(await profileStatus(before, token)).toBe(401);
  });

  it('accepts an e-mailed code made under the previous secret', async () => {
    const email = 'rotation.code@gmail.com';
    const registered = await before.app.inject({ method: 'POST', url: '/api/auth/register', payload: { username: 'RotationCode', email, password: 'Secret123' } });
    expect(registered.statusCode).toBe(201);
    const code = await latestCode(before.app, email);
    const verified = await rotating.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { email, code } });
    expect(verified.statusCode).toBe(200);
  });
});
