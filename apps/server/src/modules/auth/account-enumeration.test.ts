import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages } from '@keystore/contract';
import type { Database } from '../../db/client.ts';
import { freshDatabase } from '../../test/helper.ts';
import { codeIn } from '../../test/smtp-sink.ts';
import { statementLog, type StatementLog } from '../../test/statement-log.ts';
import { authTestApp, type AuthTestApp } from './test-kit.ts';

let database: Database;
let log: StatementLog;
let t: AuthTestApp;
beforeAll(async () => {
  database = await freshDatabase();
  log = await statementLog(database);
  t = await authTestApp({}, log.testApp);
});
afterAll(async () => {
  await t?.close();
  await database?.close();
});

const TRAVEL_IP = '198.51.100.77';

/** What a caller sees of an answer: its status and body, the lock's seconds read from Retry-After. */
async function seen(url: string, email: string): Promise<{ status: number; body: unknown }> {
  const answer = await t.post(url, { email }, { ip: TRAVEL_IP });
  const wait = answer.headers['retry-after'];
  if (answer.statusCode === 429) {
    expect(Number(wait)).toBeGreaterThanOrEqual(29);
    expect(answer.json()).toEqual({ error: accountMessages.resendTooSoon(Number(wait)) });
    return { status: 429, body: 'resend lock' };
  }
  return { status: answer.statusCode, body: answer.json() };
}

/** Asks twice in a row, as someone probing whether `email` has an account. */
const twice = async (url: string, email: string) => [await seen(url, email), await seen(url, email)];

describe('an unknown address answers like a known one', () => {
  it('resend-verification: an unverified account just registered, and no account', async () => {
    const customer = t.newCustomer();
    await t.post('/api/auth/register', customer);
    codeIn(await t.sink.nextMail(customer.email));
    const known = await twice('/api/auth/resend-verification', customer.email);
    const unknown = await twice('/api/auth/resend-verification', 'nobody.here.1@gmail.com');
    expect(known).toEqual(unknown);
    expect(known).toEqual([{ status: 200, body: { message: accountMessages.verificationEmailResent } }, { status: 429, body: 'resend lock' }]);
  });

  it('resend-new-device-code: a login waiting on its code, and no account', async () => {
    const customer = await t.verifiedCustomer();
    await t.post('/api/auth/login', customer, { ip: TRAVEL_IP });
    codeIn(await t.sink.nextMail(customer.email));
    const known = await twice('/api/auth/resend-new-device-code', customer.email);
    const unknown = await twice('/api/auth/resend-new-device-code', 'nobody.here.2@gmail.com');
    expect(known).toEqual(unknown);
    expect(known).toEqual([{ status: 200, body: { message: accountMessages.codeResent } }, { status: 429, body: 'resend lock' }]);
  });

  it('forgot-password: an account, and no account', async () => {
    const customer = await t.verifiedCustomer();
    const known = await twice('/api/auth/forgot-password', customer.email);
    const unknown = await twice('/api/auth/forgot-password', 'nobody.here.3@gmail.com');
    expect(known).toEqual(unknown);
    expect(known).toEqual(Array(2).fill({ status: 200, body: { message: accountMessages.recoveryEmailSent } }));
    // The links are still written, after the answer.
    await t.sink.nextMail(customer.email);
    expect(await t.mailsTo('nobody.here.3@gmail.com')).toBe(0);
  });

  it('forgot-password: the same statements for an account and for none, and the link stored when it answers', async () => {
    const customer = await t.verifiedCustomer();
    const nobody = 'nobody.here.4@gmail.com';
    const ask = (email: string) => log.statementsOf(() => t.post('/api/auth/forgot-password', { email }, { ip: TRAVEL_IP }));
    // The statements are the SQL without its values; each kind asked twice, in turn, as a prober would.
    const known: string[][] = [];
    const unknown: string[][] = [];
    for (let round = 0; round < 2; round += 1) {
      const mailsBefore = await t.mailsTo(customer.email);
      const forAccount = await ask(customer.email);
      // By the answer the link's mail is stored: nothing is left to this process's memory.
      expect(await t.mailsTo(customer.email)).toBe(mailsBefore + 1);
      const forNobody = await ask(nobody);
      expect(await t.mailsTo(nobody)).toBe(0);
      for (const { value } of [forAccount, forNobody]) expect(value.json()).toEqual({ message: accountMessages.recoveryEmailSent });
      known.push(forAccount.statements);
      unknown.push(forNobody.statements);
    }
    expect(known[0]!.length).toBeGreaterThan(0);
    expect(known).toEqual(unknown);
    for (let round = 0; round < 2; round += 1) expect((await t.sink.nextMail(customer.email)).subject).toMatch(/reset your .* password/i);
  });
});
