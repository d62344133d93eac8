// Assessments through the real app: recorded once per order under the rules in force, with what the
// risk desk knows of the buyer; decided once, however many instances try; fraud outcomes; the backtest
// over frozen signals; and the monthly figure of disputes and fraud warnings over sales.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RISK_RULES, riskMessages, type Backtest, type RiskFigures, type RiskRuleSet } from '@keystore/contract';
import { openDatabase, type Database } from '../../db/client.ts';
import { freshDatabase } from '../../test/helper.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';
import type { RiskIdentities } from './identities.ts';
import type { OrderFacts } from './service.ts';

let t: OrdersTestApp;
let shared: Database & { url?: string };
let second: Database | undefined;
let admin: Buyer;
let game: string;

/** An account a year old, one order of €20: nothing fires. */
const facts = (changes: Partial<OrderFacts> = {}): OrderFacts => ({
  providerRisk: 'normal',
  paidOrders24h: 1,
  maxCopiesOfTitle: 1,
  buyerAgeHours: 24 * 365,
  totalCents: 2_000,
  untrustedSignIn: false,
  sellerCashOut: false,
  threeDSecure: false,
  undisputedOldOrders: 0,
  ...changes,
});

const record = (orderId: string, observed: OrderFacts, identities: RiskIdentities = {}) => t.database.db.transaction((tx) => t.app.risk.record(tx, orderId, observed, identities));
const noteOutcome = (orderId: string, kind: 'dispute' | 'early-fraud-warning' | 'fraud-refund') => t.database.db.transaction((tx) => t.app.risk.noteOutcome(tx, orderId, kind));

/** A new customer's order of one key, awaiting payment. */
async function placed(): Promise<{ buyer: Buyer; orderId: string }> {
  const buyer = await t.buyer();
  const { order } = await t.order(buyer, game);
  return { buyer, orderId: order._id };
}

const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: admin.headers, payload });
const get = (url: string) => t.app.inject({ url, headers: admin.headers });

beforeAll(async () => {
  shared = await freshDatabase();
  t = await ordersTestApp({ database: shared, env: { RATE_LIMIT_SCALE: '10' } });
  second = shared.url ? await openDatabase({ url: shared.url }) : undefined;
  admin = await t.buyer('admin');
  game = await t.gameWithStock(500, 3);
});
afterAll(async () => {
  await t?.close();
  await second?.close();
  await shared?.close();
});

describe('recording an assessment', () => {
  it('scores an order once under the rules in force, freezing what it saw, and finds a disposable e-mail itself', async () => {
    const { orderId } = await placed();
    const first = await record(orderId, facts({ buyerAgeHours: null, totalCents: 7_500 }), { email: 'Someone@Mailinator.com', address: '192.0.2.10' });
    expect(first).toMatchObject({ orderId, rulesVersion: 1, score: 35, decision: 'review', cancelRecommended: false, verdict: null, decidedAt: null });
    expect(first.facts.map((fact) => [fact.signal, fact.value, fact.weight])).toEqual([
      ['new-buyer-total-60', 75, 15],
      ['disposable-email', 'mailinator.com', 20],
    ]);
    expect(first.signals).toEqual({ ...facts({ buyerAgeHours: null, totalCents: 7_500 }), emailDomain: 'mailinator.com', disposableEmail: true, blocklisted: false, cardTesting: false });

    const again = await record(orderId, facts({ providerRisk: 'highest' }), {});
    expect(again).toEqual(first);
    expect(await t.app.risk.assessmentOf(orderId)).toEqual(first);
    expect((await t.app.risk.assessmentsOf([orderId, 'nosuchorder00000'])).get(orderId)).toEqual(first);
  });

  it('blocks the order of a blocklisted buyer and of one locked out for card testing', async () => {
    await t.app.risk.blocklist.block(t.database.db, { card: 'fp_stolen_card' }, 'test', null);
    const blocked = await record((await placed()).orderId, facts({ threeDSecure: true }), { email: 'clean@gmail.com', card: 'fp_stolen_card' });
    expect(blocked).toMatchObject({ decision: 'block', signals: { blocklisted: true } });
    expect(blocked.facts.map((fact) => fact.signal)).toEqual(['three-d-secure', 'blocklist']);

    for (let i = 0; i < 3; i += 1) await t.app.risk.cardTesting.noteDecline({ address: '198.51.100.77' });
    const tested = await record((await placed()).orderId, facts(), { email: 'other@gmail.com', address: '198.51.100.77' });
    expect(tested).toMatchObject({ decision: 'block', signals: { cardTesting: true }, facts: [{ signal: 'card-testing' }] });
  });

  it('names the rule set it was made under', async () => {
    const rules = DEFAULT_RISK_RULES.map((rule) => (rule.signal === 'many-copies' ? { ...rule, weight: 75 } : rule));
    const put = await t.app.inject({ method: 'PUT', url: '/api/admin/risk/rules', headers: admin.headers, payload: { rules } });
    expect(put.json<RiskRuleSet>().version).toBe(2);
    const assessed = await record((await placed()).orderId, facts({ maxCopiesOfTitle: 4 }));
    expect(assessed).toMatchObject({ rulesVersion: 2, score: 75, decision: 'review', cancelRecommended: true });
    await t.app.inject({ method: 'PUT', url: '/api/admin/risk/rules', headers: admin.headers, payload: { rules: DEFAULT_RISK_RULES } });
  });
});

describe('deciding an order in review', () => {
  it('records one decision only, even when two instances decide at once', async () => {
    const { orderId } = await placed();
    await record(orderId, facts({ sellerCashOut: true }));
    const handles = [t.database, second ?? t.database];
    const results = await Promise.all(
      handles.map((database, i) => database.db.transaction((tx) => t.app.risk.decide(tx, orderId, i === 0 ? 'approved' : 'cancelled', admin.userId, `by instance ${i}`))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const decided = (await t.app.risk.assessmentOf(orderId))!;
    const winner = results.indexOf(true);
    expect(decided).toMatchObject({ verdict: winner === 0 ? 'approved' : 'cancelled', decidedBy: admin.userId, decisionNote: `by instance ${winner}` });
    expect(decided.decidedAt).toBeInstanceOf(Date);
    expect(await t.database.db.transaction((tx) => t.app.risk.decide(tx, orderId, 'approved', null, 'again'))).toBe(false);
  });

  it('decides nothing for an order never assessed; the review deadline decides as nobody', async () => {
    const { orderId } = await placed();
    expect(await t.database.db.transaction((tx) => t.app.risk.decide(tx, orderId, 'approved', null, 'not reviewed in time'))).toBe(false);
    await record(orderId, facts({ providerRisk: 'elevated' }));
    expect(await t.database.db.transaction((tx) => t.app.risk.decide(tx, orderId, 'cancelled', null, 'not reviewed in time'))).toBe(true);
    expect(await t.app.risk.assessmentOf(orderId)).toMatchObject({ verdict: 'cancelled', decidedBy: null });
  });

  it('notes each kind of fraud outcome once', async () => {
    const { orderId } = await placed();
    expect(await noteOutcome(orderId, 'early-fraud-warning')).toBe(true);
    expect(await noteOutcome(orderId, 'early-fraud-warning')).toBe(false);
    expect(await noteOutcome(orderId, 'dispute')).toBe(true);
  });
});

describe('backtest and the monthly figure', () => {
  /** Orders assessed in March 2025 (their time moved back), and one just after. */
  const march: Record<'quiet' | 'disputed' | 'copies' | 'thirdRefunded' | 'april', string> = { quiet: '', disputed: '', copies: '', thirdRefunded: '', april: '' };
  const backtest = (rules: unknown, from = '2025-03-01', to = '2025-04-01') => post('/api/admin/risk/backtest', { rules, from, to });

  beforeAll(async () => {
    const signals: Record<keyof typeof march, [OrderFacts, RiskIdentities]> = {
      quiet: [facts(), {}],
      disputed: [facts({ buyerAgeHours: null, totalCents: 6_500 }), { email: 'x@yopmail.com' }],
      copies: [facts({ maxCopiesOfTitle: 3 }), {}],
      thirdRefunded: [facts({ paidOrders24h: 3 }), {}],
      april: [facts({ maxCopiesOfTitle: 3 }), {}],
    };
    for (const name of Object.keys(march) as Array<keyof typeof march>) {
      march[name] = (await placed()).orderId;
      await record(march[name], ...signals[name]);
    }
    await noteOutcome(march.disputed, 'dispute');
    await noteOutcome(march.copies, 'early-fraud-warning');
    await noteOutcome(march.thirdRefunded, 'fraud-refund');
    const ids = [march.quiet, march.disputed, march.copies, march.thirdRefunded];
    // The test's own tables, moved back in time: what a month-old store would hold.
    await t.database.db.execute(sql`update risk_assessments set created_at = '2025-03-10T12:00:00Z' where order_id in (${sql.join(ids, sql`, `)})`);
    await t.database.db.execute(sql`update risk_assessments set created_at = '2025-04-01T00:00:00Z' where order_id = ${march.april}`);
    await t.database.db.execute(sql`update risk_outcomes set at = '2025-03-20T08:00:00Z' where order_id in (${sql.join(ids, sql`, `)})`);
  });

  it('replays the rules in force: the same decisions, what they held, caught and delayed', async () => {
    const answer = await backtest(DEFAULT_RISK_RULES);
    expect(answer.statusCode, answer.body).toBe(200);
    // Held: disputed (35) and copies (30); copies' fraud warning makes it caught too. The quiet order and the third order (25) pass.
    expect(answer.json<Backtest>()).toEqual({ orders: 4, held: 2, caught: 2, delayed: 0, changed: [] });
  });

  it('shows what another rule set would change', async () => {
    const tighter = DEFAULT_RISK_RULES.map((rule) => (rule.signal === 'third-paid-order-24h' ? { ...rule, weight: 30 } : rule)).filter((rule) => rule.signal !== 'disposable-email');
    const result = (await backtest(tighter)).json<Backtest>();
    // The third order is now held (and was a fraud refund: caught); the disputed one, without its disposable e-mail, passes (15).
    expect(result).toMatchObject({ orders: 4, held: 2, caught: 2, delayed: 0 });
    expect(result.changed.sort()).toEqual([march.disputed, march.thirdRefunded].sort());

    const looser = (await backtest([{ id: 'copies', signal: 'many-copies', weight: 30, hard: false }])).json<Backtest>();
    expect(looser).toMatchObject({ orders: 4, held: 1, caught: 1, delayed: 0, changed: [march.disputed] });
    const catchAll = (await backtest([{ id: 'old', signal: 'loyal-buyer', weight: 30, hard: false }, { id: 'any', signal: 'many-copies', weight: 30, hard: true }], '2025-03-01', '2025-04-01T00:00:01Z')).json<Backtest>();
    expect(catchAll).toMatchObject({ orders: 5, held: 2, caught: 1, delayed: 1 });
  });

  it.each([
    ['from after to', { from: '2025-04-01', to: '2025-03-01' }, riskMessages.periodInvalid],
    ['an empty period', { from: '2025-03-01', to: '2025-03-01' }, riskMessages.periodInvalid],
    ['more than 366 days', { from: '2024-01-01', to: '2025-03-01' }, riskMessages.periodInvalid],
    ['a day that does not exist', { from: '2025-02-30', to: '2025-03-01' }, riskMessages.dateInvalid],
    ['a time without its offset', { from: '2025-03-01T10:00:00', to: '2025-04-01' }, riskMessages.dateInvalid],
    ['a word for a date', { from: 'yesterday', to: '2025-04-01' }, riskMessages.dateInvalid],
    ['no from', { from: undefined, to: '2025-04-01' }, riskMessages.dateInvalid],
    ['a number for from', { from: '-1', to: '2025-04-01' }, riskMessages.dateInvalid],
    ['the year 0', { from: '0000-01-01', to: '0000-02-01' }, riskMessages.dateInvalid],
    ['a number for to', { from: '2025-03-01', to: '9'.repeat(20) }, riskMessages.dateInvalid],
    ['no rules', { rules: [], from: '2025-03-01', to: '2025-04-01' }, riskMessages.rulesRequired],
    ['a weight of 500', { rules: [{ id: 'x', signal: 'many-copies', weight: 500, hard: false }], from: '2025-03-01', to: '2025-04-01' }, riskMessages.weightInvalid],
  ])('refuses a backtest with %s: 400', async (_, payload, message) => {
    const answer = await post('/api/admin/risk/backtest', { rules: DEFAULT_RISK_RULES, ...payload });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ error: message });
  });

  it("counts a month's disputes and fraud warnings (not fraud refunds) over its paid orders, and rings from 0.5 %", async () => {
    const past = (await get('/api/admin/risk/figures?month=2025-03')).json<RiskFigures>();
    // Frauds in a month without sales: no ratio, but the alarm rings.
    expect(past).toEqual({ month: '2025-03', disputes: 1, fraudWarnings: 1, sales: 0, ratio: 0, thresholds: { alarm: 0.005, excessive: 0.015 }, alarm: true });
    expect((await get('/api/admin/risk/figures?month=2025-05')).json<RiskFigures>()).toMatchObject({ disputes: 0, fraudWarnings: 0, sales: 0, ratio: 0, alarm: false });

    // The outcomes the tests above noted, moved to June 2025, leave this month to the orders paid here.
    await t.database.db.execute(sql`update risk_outcomes set at = '2025-06-15T00:00:00Z' where at > now() - interval '1 hour'`);
    expect((await get('/api/admin/risk/figures?month=2025-06')).json<RiskFigures>()).toMatchObject({ disputes: 1, fraudWarnings: 1, sales: 0, alarm: true });
    const month = new Date().toISOString().slice(0, 7);
    const paid: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const { buyer, orderId } = await placed();
      expect((await t.pay(buyer, orderId)).statusCode).toBe(200);
      paid.push(orderId);
    }
    const quiet = (await get('/api/admin/risk/figures')).json<RiskFigures>();
    expect(quiet).toMatchObject({ month, disputes: 0, sales: 4, ratio: 0, alarm: false });
    await noteOutcome(paid[0]!, 'dispute');
    await noteOutcome(paid[1]!, 'fraud-refund');
    await noteOutcome(paid[2]!, 'early-fraud-warning');
    const now = (await get(`/api/admin/risk/figures?month=${month}`)).json<RiskFigures>();
    expect(now).toMatchObject({ month, disputes: 1, fraudWarnings: 1, sales: 4, ratio: 0.5, alarm: true });
    // A sale refunded later still counts: the card networks count the sales a dispute can follow.
    expect((await post(`/api/admin/orders/${paid[3]}/refund`, { reason: 'changed their mind' })).statusCode).toBe(200);
    expect((await get(`/api/admin/risk/figures?month=${month}`)).json<RiskFigures>()).toMatchObject({ sales: 4 });
  });

  it.each(['2025-13', '2025-3', '25-03', 'March', '0050-01'])('refuses the month %s with 400', async (month) => {
    const answer = await get(`/api/admin/risk/figures?month=${month}`);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ error: riskMessages.monthInvalid });
  });
});
