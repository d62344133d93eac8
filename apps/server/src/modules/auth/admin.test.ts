import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { accountMessages, validationMessages as v, type Session } from '@keystore/contract';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { freshDatabase, testConfig } from '../../test/helper.ts';
import { codeIn, startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { UsersService } from '../users/service.ts';

const ADMIN = { email: 'Owner.Of.Store@gmail.com', password: 'Owner1234' };

describe('ADMIN_EMAIL / ADMIN_PASSWORD', () => {
  let database: Database;
  let sink: SmtpSink;
  let users: UsersService;
  const opened: Array<{ app: FastifyInstance; cleanup: () => void }> = [];

  /** An instance of the store on the shared database, with an admin-only route to call. */
  async function start(env: Record<string, string>): Promise<FastifyInstance> {
    const { config, cleanup } = testConfig({ SMTP_URL: sink.url, ...env });
    const app = await buildApp({ config, database, logger: false, catalog: { autoSync: false } });
    app.get('/test/admin-only', { onRequest: app.requireAdmin }, async (request) => ({ role: request.account.role }));
    await app.ready();
    opened.push({ app, cleanup });
    return app;
  }

  beforeAll(async () => {
    database = await freshDatabase();
    sink = await startSmtpSink();
    const { config, cleanup } = testConfig();
    users = new UsersService(database, config);
    cleanup();
  });
  afterAll(async () => {
    for (const { app, cleanup } of opened) {
      await app.close();
      cleanup();
    }
    await database.close();
    await sink.close();
  });

  const post = (app: FastifyInstance, url: string, payload: object, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, payload, headers });

  it('creates a verified admin named with a word customers may not use, who reaches admin-only routes', async () => {
    const app = await start({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    const admin = await users.findByEmail(ADMIN.email.toLowerCase());
    expect(admin).toMatchObject({ username: 'Admin', role: 'admin', emailVerifiedAt: expect.any(Date) });

    // A first login from anywhere asks for a code, like any account's.
    const login = await post(app, '/api/auth/login', ADMIN);
    expect(login.json()).toEqual({ twoFactorRequired: true, method: 'email', message: accountMessages.newDeviceCodeSent });
    const code = codeIn(await sink.nextMail(ADMIN.email.toLowerCase()));
    const { token, user } = (await post(app, '/api/auth/verify-new-device', { email: ADMIN.email, code })).json<Session>();
    expect(user.role).toBe('admin');

    const allowed = await app.inject({ url: '/test/admin-only', headers: { authorization: `Bearer ${token}` } });
    expect(allowed.json()).toEqual({ role: 'admin' });
    expect((await app.inject({ url: '/test/admin-only' })).json()).toEqual({ error: accountMessages.authRequired });
  });

  it('refuses a customer on admin-only routes with 403', async () => {
    const app = opened[0]!.app;
    const customer = { username: 'Plain_Customer', email: 'plain.customer@gmail.com', password: 'Secret123' };
    await post(app, '/api/auth/register', customer);
    await post(app, '/api/auth/verify-email', { email: customer.email, code: codeIn(await sink.nextMail(customer.email)) });
    const { token } = (await post(app, '/api/auth/login', customer)).json<Session>();
    const refused = await app.inject({ url: '/test/admin-only', headers: { authorization: `Bearer ${token}` } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: accountMessages.adminOnly });
  });

  it('leaves the admin’s password alone on a restart with another ADMIN_PASSWORD, and promotes an existing customer', async () => {
    const app = await start({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: 'Changed999' });
    expect((await post(app, '/api/auth/login', ADMIN)).statusCode).toBe(200);
    expect((await post(app, '/api/auth/login', { ...ADMIN, password: 'Changed999' })).statusCode).toBe(401);

    const customer = { username: 'Future_Boss', email: 'future.boss@gmail.com', password: 'Secret123' };
    await post(app, '/api/auth/register', customer);
    await start({ ADMIN_EMAIL: customer.email, ADMIN_PASSWORD: 'Whatever1' });
    expect(await users.findByEmail(customer.email)).toMatchObject({ username: 'Future_Boss', role: 'admin', emailVerifiedAt: expect.any(Date) });
  });

  it('reads the client address from the connection, not X-Forwarded-For, while TRUST_PROXY is off', async () => {
    const app = opened[0]!.app;
    const customer = { email: 'plain.customer@gmail.com', password: 'Secret123' };
    // Verified from 127.0.0.1 (the connection): a forged header does not make it a new device.
    const login = await post(app, '/api/auth/login', customer, { 'x-forwarded-for': '203.0.113.50' });
    expect(login.json()).toHaveProperty('token');
  });
});

describe('configuration', () => {
  const base = { JWT_SECRET: 'x'.repeat(40), KEY_ENCRYPTION_KEY: '0'.repeat(64), DATA_DIR: '/nonexistent/keystore-config-test' };

  it('refuses an ADMIN_EMAIL that breaks the e-mail rule, an ADMIN_PASSWORD that breaks the password rule, or only one of them', () => {
    expect(() => loadConfig({ ...base, ADMIN_EMAIL: 'boss@unknown-provider.zz', ADMIN_PASSWORD: 'Owner1234' })).toThrow(`ADMIN_EMAIL: ${v.emailProvider}`);
    expect(() => loadConfig({ ...base, ADMIN_EMAIL: 'boss.gmail.com', ADMIN_PASSWORD: 'Owner1234' })).toThrow(`ADMIN_EMAIL: ${v.emailNeedsAt}`);
    expect(() => loadConfig({ ...base, ADMIN_EMAIL: 'boss@gmail.com', ADMIN_PASSWORD: 'owner' })).toThrow(`ADMIN_PASSWORD: ${v.passwordTooShort}`);
    expect(() => loadConfig({ ...base, ADMIN_EMAIL: 'boss@gmail.com', ADMIN_PASSWORD: 'Password1' })).toThrow(`ADMIN_PASSWORD: ${v.passwordCommon}`);
    expect(() => loadConfig({ ...base, ADMIN_EMAIL: 'boss@gmail.com' })).toThrow('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
    expect(loadConfig({ ...base, ADMIN_EMAIL: ' Boss@Gmail.com ', ADMIN_PASSWORD: 'Owner1234' }).admin).toEqual({ email: 'boss@gmail.com', password: 'Owner1234' });
  });
});
