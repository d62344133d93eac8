// The risk desk's back office through the real app: the rule sets (versioned and audited), the
// disposable domains, the blocklist (hashed, never the raw value), who may call it, and bad input.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RISK_RULES, riskMessages, type AuditList, type BlocklistEntry, type DisposableDomains, type RiskRuleSet } from '@keystore/contract';
import { queryRows } from '../../db/client.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';
import { RiskService } from './service.ts';

let t: OrdersTestApp;
let admin: Buyer;
let customer: Buyer;

type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';
const call = (method: Method, url: string, payload?: unknown, who: Buyer | null = admin) =>
  t.app.inject({ method, url, headers: who ? who.headers : {}, ...(payload === undefined ? {} : { payload: payload as object }) });

const auditOf = async (action: string) => (await call('GET', '/api/admin/audit?pageSize=100')).json<AuditList>().items.filter((entry) => entry.action === action);

beforeAll(async () => {
  t = await ordersTestApp({ sync: false });
  admin = await t.buyer('admin');
  customer = await t.buyer();
});
afterAll(() => t.close());

describe('risk desk: who may call it', () => {
  const routes: Array<[Method, string, unknown?]> = [
    ['GET', '/api/admin/risk/rules'],
    ['PUT', '/api/admin/risk/rules', { rules: DEFAULT_RISK_RULES }],
    ['GET', '/api/admin/risk/disposable-domains'],
    ['PUT', '/api/admin/risk/disposable-domains', { domains: [] }],
    ['GET', '/api/admin/risk/blocklist'],
    ['POST', '/api/admin/risk/blocklist', { kind: 'email', value: 'x@example.com', note: '' }],
    ['DELETE', '/api/admin/risk/blocklist/abcdefghijklmnop'],
    ['POST', '/api/admin/risk/backtest', { rules: DEFAULT_RISK_RULES, from: '2026-01-01', to: '2026-02-01' }],
    ['GET', '/api/admin/risk/figures'],
  ];

  it.each(routes)('%s %s: 401 without a session, 403 for a customer', async (method, url, payload) => {
    const anonymous = await call(method, url, payload, null);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: expect.any(String) });
    const refused = await call(method, url, payload, customer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: expect.any(String) });
  });
});

describe('risk desk: rule sets', () => {
  it('answers the defaults as version 1 until an owner writes version 2, each change audited with before and after', async () => {
    const first = await call('GET', '/api/admin/risk/rules');
    expect(first.statusCode).toBe(200);
    expect(first.json<RiskRuleSet>()).toEqual({ version: 1, rules: DEFAULT_RISK_RULES, createdAt: null, createdBy: null });

    const stricter = DEFAULT_RISK_RULES.map((rule) => (rule.signal === 'disposable-email' ? { ...rule, weight: 35 } : rule));
    const put = await call('PUT', '/api/admin/risk/rules', { rules: stricter });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<RiskRuleSet>()).toMatchObject({ version: 2, rules: stricter, createdBy: admin.userId });
    const third = await call('PUT', '/api/admin/risk/rules', { rules: stricter.slice(0, 3) });
    expect(third.json<RiskRuleSet>().version).toBe(3);
    expect((await call('GET', '/api/admin/risk/rules')).json<RiskRuleSet>()).toMatchObject({ version: 3, rules: stricter.slice(0, 3) });
    expect((await t.app.risk.rules.current()).version).toBe(3);

    const audit = await auditOf('risk.rules');
    expect(audit).toHaveLength(2);
    expect(audit[1]).toMatchObject({ actor: { id: admin.userId, email: admin.email }, target: { type: 'risk', id: 'rules' }, before: { version: 1, rules: DEFAULT_RISK_RULES }, after: { version: 2, rules: stricter } });
    expect(audit[0]).toMatchObject({ before: { version: 2 }, after: { version: 3 } });
  });

  it.each([
    ['no rules', { rules: [] }, riskMessages.rulesRequired],
    ['no body field', {}, riskMessages.rulesRequired],
    ['an unknown signal', { rules: [{ id: 'x', signal: 'moon-phase', weight: 5, hard: false }] }, riskMessages.signalUnknown],
    ['a weight above 100', { rules: [{ id: 'x', signal: 'many-copies', weight: 101, hard: false }] }, riskMessages.weightInvalid],
    ['a fractional weight', { rules: [{ id: 'x', signal: 'many-copies', weight: 2.5, hard: false }] }, riskMessages.weightInvalid],
    ['a weight as text', { rules: [{ id: 'x', signal: 'many-copies', weight: '5', hard: false }] }, riskMessages.weightInvalid],
    ['no hard flag', { rules: [{ id: 'x', signal: 'many-copies', weight: 5 }] }, riskMessages.hardInvalid],
    ['a bad id', { rules: [{ id: 'Many Copies', signal: 'many-copies', weight: 5, hard: false }] }, riskMessages.ruleIdInvalid],
    ['one id twice', { rules: [{ id: 'x', signal: 'many-copies', weight: 5, hard: false }, { id: 'x', signal: 'blocklist', weight: 5, hard: true }] }, riskMessages.ruleIdTwice('x')],
    ['one signal twice', { rules: [{ id: 'a', signal: 'many-copies', weight: 5, hard: false }, { id: 'b', signal: 'many-copies', weight: 9, hard: false }] }, riskMessages.signalTwice('many-copies')],
  ])('refuses %s with 400 and its message, changing nothing', async (_, payload, message) => {
    const before = await t.app.risk.rules.current();
    const answer = await call('PUT', '/api/admin/risk/rules', payload);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ error: message });
    expect((await t.app.risk.rules.current()).version).toBe(before.version);
  });
});

describe('risk desk: disposable e-mail domains', () => {
  it("bundles a few hundred domains and adds the owner's own, each covering its subdomains, audited", async () => {
    const first = (await call('GET', '/api/admin/risk/disposable-domains')).json<DisposableDomains>();
    expect(first.bundled).toBeGreaterThan(300);
    expect(first.domains).toEqual([]);
    for (const domain of ['mailinator.com', 'guerrillamail.com', '10minutemail.com', 'yopmail.com', 'temp-mail.org', 'trashmail.com', 'inbox.mailinator.com'])
      expect(await t.app.risk.disposable.isDisposable(domain), domain).toBe(true);
    for (const domain of ['gmail.com', 'example.com', 'notmailinator.co', '']) expect(await t.app.risk.disposable.isDisposable(domain), domain).toBe(false);

    const put = await call('PUT', '/api/admin/risk/disposable-domains', { domains: [' Burner-Box.example ', 'burner-box.example', 'quickdrop.test'] });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<DisposableDomains>()).toEqual({ bundled: first.bundled, domains: ['burner-box.example', 'quickdrop.test'] });
    expect(await t.app.risk.disposable.isDisposable('burner-box.example')).toBe(true);
    expect(await t.app.risk.disposable.isDisposable('eu.quickdrop.test')).toBe(true);

    await call('PUT', '/api/admin/risk/disposable-domains', { domains: ['quickdrop.test'] });
    expect(await t.app.risk.disposable.isDisposable('burner-box.example')).toBe(false);
    const audit = await auditOf('risk.disposable-domains');
    expect(audit[0]).toMatchObject({ target: { type: 'risk', id: 'disposable-domains' }, before: ['burner-box.example', 'quickdrop.test'], after: ['quickdrop.test'] });
  });

  it.each([
    [{ domains: ['not a domain'] }, riskMessages.domainInvalid],
    [{ domains: ['nodot'] }, riskMessages.domainInvalid],
    [{ domains: 'mailinator.com' }, riskMessages.domainInvalid],
    [{ domains: Array.from({ length: 2001 }, (_, i) => `d${i}.example`) }, riskMessages.tooManyDomains],
  ])('refuses %j with 400', async (payload, message) => {
    const answer = await call('PUT', '/api/admin/risk/disposable-domains', payload);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ error: message });
  });
});

describe('risk desk: blocklist', () => {
  const rawValues = ['jane.roe@example.com', '4000056655665556', '203.0.113.7', 'browser-session-0a1b2c'];

  it('blocks each kind by a keyed hash with a masked hint, answers 409 for a value blocked already, and unblocks', async () => {
    const added: BlocklistEntry[] = [];
    for (const [kind, value, hint] of [
      ['email', ' Jane.Roe@Example.com ', 'j***@example.com'],
      ['card', '4000056655665556', 'card …5556'],
      ['address', '203.0.113.7', '203.0.113.*'],
      ['browser', 'browser-session-0a1b2c', 'browser brow…'],
    ] as const) {
      const answer = await call('POST', '/api/admin/risk/blocklist', { kind, value, note: 'chargeback on order 1' });
      expect(answer.statusCode, answer.body).toBe(201);
      const entry = answer.json<BlocklistEntry>();
      expect(entry).toMatchObject({ kind, hint, note: 'chargeback on order 1', createdBy: admin.userId });
      added.push(entry);
    }
    const again = await call('POST', '/api/admin/risk/blocklist', { kind: 'email', value: 'jane.roe@EXAMPLE.com' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: riskMessages.alreadyBlocked });

    const list = (await call('GET', '/api/admin/risk/blocklist')).json<BlocklistEntry[]>();
    expect(list.map((entry) => entry._id).sort()).toEqual(added.map((entry) => entry._id).sort());
    expect(JSON.stringify(list)).not.toMatch(/jane\.roe|4000056655665556|203\.0\.113\.7|0a1b2c/);

    const risk = t.app.risk.blocklist;
    expect(await risk.isBlocked({ email: 'JANE.ROE@example.com' })).toBe(true);
    expect(await risk.isBlocked({ card: '4000056655665556' })).toBe(true);
    expect(await risk.isBlocked({ address: '::ffff:203.0.113.7' })).toBe(true);
    expect(await risk.isBlocked({ browser: 'browser-session-0a1b2c' })).toBe(true);
    expect(await risk.isBlocked({ email: 'jane.roe@example.org', address: '203.0.113.8' })).toBe(false);
    // A card's value is not an e-mail's: each kind is hashed apart.
    expect(await risk.isBlocked({ browser: '4000056655665556' })).toBe(false);

    const removed = await call('DELETE', `/api/admin/risk/blocklist/${added[0]!._id}`);
    expect(removed.statusCode).toBe(204);
    expect(await risk.isBlocked({ email: 'jane.roe@example.com' })).toBe(false);
    const gone = await call('DELETE', `/api/admin/risk/blocklist/${added[0]!._id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: riskMessages.blocklistEntryNotFound });
    expect((await call('DELETE', '/api/admin/risk/blocklist/not-an-id')).statusCode).toBe(404);

    const audit = [...(await auditOf('risk.block')), ...(await auditOf('risk.unblock'))];
    expect(audit.map((entry) => entry.action).sort()).toEqual(['risk.block', 'risk.block', 'risk.block', 'risk.block', 'risk.unblock']);
    expect(JSON.stringify(audit)).not.toMatch(/jane\.roe|4000056655665556|203\.0\.113\.7|0a1b2c/);
  });

  it('keeps no raw value in its table', async () => {
    const [row] = await queryRows<{ text: string }>(t.database.db, sql`select coalesce(json_agg(b), '[]')::text as text from risk_blocklist b`);
    for (const value of rawValues) expect(row!.text.toLowerCase()).not.toContain(value);
    expect(row!.text).toContain('203.0.113.*');
  });

  it('blocks the identities a dispute names once, however often it is told, with the store as author', async () => {
    const identities = { email: 'fraudster@gmail.com', card: 'card_fp_9', address: '198.51.100.23', browser: null };
    expect(await t.database.db.transaction((tx) => t.app.risk.blocklist.block(tx, identities, 'Dispute on order x', null))).toBe(3);
    expect(await t.database.db.transaction((tx) => t.app.risk.blocklist.block(tx, identities, 'Dispute on order x', null))).toBe(0);
    expect(await t.app.risk.blocklist.isBlocked({ email: 'Fraudster@gmail.com' })).toBe(true);
    const entries = (await call('GET', '/api/admin/risk/blocklist')).json<BlocklistEntry[]>().filter((entry) => entry.note === 'Dispute on order x');
    expect(entries.map((entry) => [entry.kind, entry.createdBy]).sort()).toEqual([['address', null], ['card', null], ['email', null]]);
  });

  it('still finds an entry after JWT_SECRET is rotated, while the old secret is kept as previous', async () => {
    await t.app.risk.blocklist.block(t.database.db, { email: 'rotated@gmail.com' }, '', null);
    const rotated = new RiskService({ database: t.database, secrets: ['a-new-secret-a-new-secret-a-new-secret-0', t.config.secrets.jwt] });
    expect(await rotated.blocklist.isBlocked({ email: 'rotated@gmail.com' })).toBe(true);
    const forgotten = new RiskService({ database: t.database, secrets: ['a-new-secret-a-new-secret-a-new-secret-0'] });
    expect(await forgotten.blocklist.isBlocked({ email: 'rotated@gmail.com' })).toBe(false);
  });

  it.each([
    [{ kind: 'phone', value: '+441234' }, riskMessages.kindInvalid],
    [{ kind: 'email', value: 'not-an-email' }, riskMessages.emailValueInvalid],
    [{ kind: 'address', value: 'example.com' }, riskMessages.addressValueInvalid],
    [{ kind: 'address', value: '256.1.1.1' }, riskMessages.addressValueInvalid],
    [{ kind: 'card', value: '   ' }, riskMessages.valueRequired],
    [{ kind: 'card' }, riskMessages.valueRequired],
    [{ kind: 'card', value: 'x'.repeat(255) }, riskMessages.valueTooLong],
    [{ kind: 'card', value: '4242', note: 'n'.repeat(501) }, riskMessages.noteTooLong],
  ])('refuses %j with 400', async (payload, message) => {
    const answer = await call('POST', '/api/admin/risk/blocklist', payload);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ error: message });
  });
});
