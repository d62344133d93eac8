// Card testing: the third declined payment in 10 minutes for one e-mail, address or browser locks it
// out for 24 hours, counted in the database so that two instances count one set of declines exactly.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { riskMessages } from '@keystore/contract';
import { openDatabase, queryRows, type Database } from '../../db/client.ts';
import { HttpError } from '../../platform/errors.ts';
import { buildTestApp, freshDatabase, type TestApp } from '../../test/helper.ts';
import { RiskService } from './service.ts';

let t: TestApp;
let shared: Database & { url?: string };
let second: Database | undefined;
/** The risk desk of a second instance on the same database (its own connection on PostgreSQL). */
let other: RiskService;
let n = 0;
const email = () => `tester.${(n += 1)}${Math.random().toString(36).slice(2, 8)}@gmail.com`;

beforeAll(async () => {
  shared = await freshDatabase();
  t = await buildTestApp({ database: shared });
  second = shared.url ? await openDatabase({ url: shared.url }) : undefined;
  other = new RiskService({ database: second ?? shared, secrets: [t.config.secrets.jwt] });
});
afterAll(async () => {
  await t?.close();
  await second?.close();
  await shared?.close();
});

describe('card testing', () => {
  it('locks an identity out on its third decline in 10 minutes, for 24 hours, whichever way its e-mail is written', async () => {
    const risk = t.app.risk.cardTesting;
    const who = email();
    expect(await risk.noteDecline({ email: who, address: '198.51.100.1' })).toBe(false);
    expect(await risk.noteDecline({ email: who.toUpperCase() })).toBe(false);
    expect(await risk.lockedOut({ email: who })).toBe(false);
    expect(await risk.noteDecline({ email: ` ${who} `, address: '198.51.100.2' })).toBe(true);

    expect(await risk.lockedOut({ email: who.toUpperCase() })).toBe(true);
    expect(await other.cardTesting.lockedOut({ email: who })).toBe(true);
    // Each address declined less than three times: not locked out by itself.
    expect(await risk.lockedOut({ address: '198.51.100.1' })).toBe(false);
    expect(await risk.lockedOut({ address: '198.51.100.1', browser: 'some-session' })).toBe(false);
    expect(await risk.lockedOut({ address: '198.51.100.1', email: who })).toBe(true);

    const refused = await risk.refuseIfLockedOut({ email: who }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(429);
    expect((refused as HttpError).message).toBe(riskMessages.cardTestingLockout);
    const retryAfter = Number((refused as HttpError).headers['Retry-After']);
    expect(retryAfter).toBeGreaterThan(24 * 3600 - 60);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    await expect(risk.refuseIfLockedOut({ email: email() })).resolves.toBeUndefined();
  });

  it('forgets declines older than 10 minutes, and lets a lockout end after its 24 hours', async () => {
    const risk = t.app.risk.cardTesting;
    const browser = `session-${Math.random().toString(36).slice(2)}`;
    await risk.noteDecline({ browser });
    await risk.noteDecline({ browser });
    await t.database.db.execute(sql`update risk_declines set at = at - interval '11 minutes'`);
    expect(await risk.noteDecline({ browser })).toBe(false);
    expect(await risk.noteDecline({ browser })).toBe(false);
    expect(await risk.noteDecline({ browser })).toBe(true);
    await t.database.db.execute(sql`update risk_declining_identities set locked_until = now() - interval '1 second' where locked_until is not null`);
    expect(await risk.lockedOut({ browser })).toBe(false);
  });

  it('ignores an address the server could not learn, so strangers never share a lockout', async () => {
    const risk = t.app.risk.cardTesting;
    for (let i = 0; i < 3; i += 1) expect(await risk.noteDecline({ address: 'unknown' })).toBe(false);
    expect(await risk.lockedOut({ address: 'unknown' })).toBe(false);
  });

  it('counts declines noted at once by two instances exactly: the third and each one after it lock out', async () => {
    const who = email();
    const callers = [t.app.risk.cardTesting, other.cardTesting];
    const locked = await Promise.all(Array.from({ length: 6 }, (_, i) => callers[i % 2]!.noteDecline({ email: who })));
    expect(locked.filter(Boolean)).toHaveLength(4);
    expect(await t.app.risk.cardTesting.lockedOut({ email: who })).toBe(true);

    const three = email();
    const firstThree = await Promise.all([callers[0]!.noteDecline({ email: three }), callers[1]!.noteDecline({ email: three }), callers[1]!.noteDecline({ email: three })]);
    expect(firstThree.filter(Boolean)).toHaveLength(1);
    expect(await other.cardTesting.lockedOut({ email: three })).toBe(true);
  });

  it('keeps no e-mail, address or browser in its tables, only keyed hashes', async () => {
    const who = email();
    await t.app.risk.cardTesting.noteDecline({ email: who, address: '192.0.2.55', browser: 'browser-session-raw' });
    const text = (await queryRows<{ text: string }>(t.database.db, sql`select (select coalesce(json_agg(d), '[]') from risk_declines d)::text || (select coalesce(json_agg(i), '[]') from risk_declining_identities i)::text as text`))[0]!.text;
    expect(text).not.toContain(who);
    expect(text).not.toContain('192.0.2.55');
    expect(text).not.toContain('browser-session-raw');
  });
});
