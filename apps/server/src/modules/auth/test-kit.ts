// What the account tests share: the real app wired to a real SMTP sink, with X-Forwarded-For
// honoured (TRUST_PROXY) so a test can call from any address, and a few customer journeys.
import { expect } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Database } from '../../db/client.ts';
import { mailOutbox } from '../../platform/schema.ts';
import { accountCodes } from './schema.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { codeIn, startSmtpSink, type SmtpSink } from '../../test/smtp-sink.ts';
import { UsersService } from '../users/service.ts';

const PASSWORD = 'Secret123';
export const HOME_IP = '198.51.100.7';

export interface AuthTestApp extends TestApp {
  sink: SmtpSink;
  /** POSTs JSON from `ip` (default HOME_IP), with a bearer token when given. */
  post(url: string, body?: unknown, options?: { ip?: string; token?: string }): Promise<LightMyRequestResponse>;
  /** A fresh, valid e-mail and username for one test. */
  newCustomer(): { username: string; email: string; password: string };
  /** Signs up and verifies by code from `ip`, which the account then trusts. */
  verifiedCustomer(ip?: string): Promise<{ username: string; email: string; password: string }>;
  /** Logs in from an address the account trusts and answers the token. */
  login(email: string, password: string, ip?: string): Promise<string>;
  /** Moves the last code of a purpose `seconds` into the past (resend locks, expiry). */
  ageLastCode(email: string, purpose: 'verify-email' | 'new-device' | 'reset-password', seconds: number): Promise<void>;
  /** How many mails the store wrote to `email` (sent or not). */
  mailsTo(email: string): Promise<number>;
}

let counter = 0;

/** The app on a fresh database, or on `options.database` (left open by `close`), with `options.beforeReady`'s hooks. */
export async function authTestApp(
  env: Record<string, string> = {},
  options: { database?: Database; beforeReady?: (app: FastifyInstance) => void } = {},
): Promise<AuthTestApp> {
  const sink = await startSmtpSink();
  const t = await buildTestApp({ env: { SMTP_URL: sink.url, TRUST_PROXY: '1', PUBLIC_URL: 'https://shop.example', ...env }, ...options });

  const post: AuthTestApp['post'] = (url, body, options = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      ...(body === undefined ? {} : { payload: body as object }),
      headers: {
        'x-forwarded-for': options.ip ?? HOME_IP,
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
    });

  const newCustomer = () => {
    counter += 1;
    const tag = `${process.pid.toString(36)}${counter}`;
    return { username: `Player_${tag}`, email: `player.${tag}@gmail.com`, password: PASSWORD };
  };

  const users = new UsersService(t.database, t.config);
  const userIdOf = async (email: string) => {
    const user = await users.findByEmail(email);
    if (!user) throw new Error(`no account ${email}`);
    return user.id;
  };

  return {
    ...t,
    sink,
    post,
    newCustomer,
    async verifiedCustomer(ip = HOME_IP) {
      const customer = newCustomer();
      expect((await post('/api/auth/register', customer, { ip })).statusCode).toBe(201);
      const code = codeIn(await sink.nextMail(customer.email));
      expect((await post('/api/auth/verify-email', { email: customer.email, code }, { ip })).statusCode).toBe(200);
      return customer;
    },
    async login(email, password, ip = HOME_IP) {
      const response = await post('/api/auth/login', { email, password }, { ip });
      expect(response.statusCode).toBe(200);
      const { token } = response.json<{ token?: string }>();
      if (!token) throw new Error(`login of ${email} from ${ip} asked for a code`);
      return token;
    },
    async ageLastCode(email, purpose, seconds) {
      const userId = await userIdOf(email);
      await t.database.db
        .update(accountCodes)
        .set({
          createdAt: sql`${accountCodes.createdAt} - ${seconds}::int * interval '1 second'`,
          expiresAt: sql`${accountCodes.expiresAt} - ${seconds}::int * interval '1 second'`,
        })
        .where(and(eq(accountCodes.userId, userId), eq(accountCodes.purpose, purpose)));
    },
    async mailsTo(email) {
      return (await t.database.db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.to, email))).length;
    },
    async close() {
      await t.close();
      await sink.close();
    },
  };
}
