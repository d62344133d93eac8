// The risk desk's scoring, rule by rule and threshold by threshold, under the default rule set.
import { describe, expect, it } from 'vitest';
import type { RiskRule, RiskSignals } from '@keystore/contract';
import { assess } from './assess.ts';
import { DEFAULT_RULE_SET } from './rule-sets.ts';

/** An account a year old, one order of €20, nothing remarkable: no signal fires. */
const quiet: RiskSignals = {
  providerRisk: 'normal',
  paidOrders24h: 1,
  maxCopiesOfTitle: 1,
  buyerAgeHours: 24 * 365,
  totalCents: 2_000,
  untrustedSignIn: false,
  emailDomain: 'gmail.com',
  disposableEmail: false,
  sellerCashOut: false,
  threeDSecure: false,
  undisputedOldOrders: 0,
  blocklisted: false,
  cardTesting: false,
};

const scored = (changes: Partial<RiskSignals>) => assess(DEFAULT_RULE_SET, { ...quiet, ...changes });

describe('assess under the default rules', () => {
  it('accepts an order where no signal fires, with no facts', () => {
    expect(scored({})).toEqual({ rulesVersion: 1, score: 0, decision: 'accept', cancelRecommended: false, facts: [] });
  });

  it.each([
    ['provider-risk-elevated', { providerRisk: 'elevated' }, 40, 'elevated', "The payment provider rates this payment's risk as elevated"],
    ['third-paid-order-24h', { paidOrders24h: 3 }, 25, 3, '3rd paid order in 24 hours'],
    ['many-copies', { maxCopiesOfTitle: 3 }, 30, 3, '3 copies of one title in this order or in 30 days'],
    ['new-buyer-total-60', { buyerAgeHours: null, totalCents: 6_000 }, 15, 60, '€60.00 from a guest'],
    ['new-buyer-total-150', { buyerAgeHours: 5.5, totalCents: 15_000 }, 30, 150, '€150.00 from an account 5 hours old'],
    ['untrusted-sign-in', { untrustedSignIn: true }, 25, true, 'A password reset, a sign-in from an address not trusted, or a change of how the account signs in, in the last 72 hours'],
    ['disposable-email', { emailDomain: 'mailinator.com', disposableEmail: true }, 20, 'mailinator.com', 'Disposable e-mail domain mailinator.com'],
    ['seller-cash-out', { sellerCashOut: true }, 50, true, "The buyer is the seller of a line, or shares an address or browser with that seller's account"],
  ] as const)('%s weighs %#', (signal, changes, weight, value, note) => {
    const assessment = scored(changes);
    expect(assessment.facts).toEqual([{ signal, value, weight, note }]);
    expect(assessment.score).toBe(weight);
  });

  it('fires each count-based signal only from its limit', () => {
    expect(scored({ paidOrders24h: 2 }).facts).toEqual([]);
    expect(scored({ paidOrders24h: 11 }).facts[0]!.note).toBe('11th paid order in 24 hours');
    expect(scored({ paidOrders24h: 22 }).facts[0]!.note).toBe('22nd paid order in 24 hours');
    expect(scored({ maxCopiesOfTitle: 2 }).facts).toEqual([]);
    expect(scored({ undisputedOldOrders: 2 }).facts).toEqual([]);
  });

  it('counts a new buyer by age and total: a guest or an account younger than 24 hours, from €60, and from €150 the upper tier instead of the lower', () => {
    expect(scored({ buyerAgeHours: null, totalCents: 5_999 }).facts).toEqual([]);
    expect(scored({ buyerAgeHours: 23.9, totalCents: 6_000 }).score).toBe(15);
    expect(scored({ buyerAgeHours: 24, totalCents: 20_000 }).facts).toEqual([]);
    expect(scored({ buyerAgeHours: null, totalCents: 14_999 }).score).toBe(15);
    const upper = scored({ buyerAgeHours: null, totalCents: 40_000 });
    expect(upper.facts.map((fact) => fact.signal)).toEqual(['new-buyer-total-150']);
    expect(upper.score).toBe(30);
  });

  it('takes off for 3-D Secure and a loyal buyer, and never scores below 0', () => {
    expect(scored({ threeDSecure: true })).toMatchObject({ score: 0, decision: 'accept', facts: [{ signal: 'three-d-secure', value: true, weight: -30, note: 'Authenticated with 3-D Secure' }] });
    expect(scored({ undisputedOldOrders: 4 }).facts).toEqual([{ signal: 'loyal-buyer', value: 4, weight: -20, note: '4 undisputed orders older than 120 days' }]);
    expect(scored({ providerRisk: 'elevated', threeDSecure: true }).score).toBe(10);
    expect(scored({ providerRisk: 'elevated', untrustedSignIn: true, undisputedOldOrders: 3 }).score).toBe(45);
  });

  it('reviews from 30, recommends cancelling from 70, and clamps the score at 100', () => {
    expect(scored({ paidOrders24h: 3 })).toMatchObject({ score: 25, decision: 'accept' });
    expect(scored({ maxCopiesOfTitle: 3 })).toMatchObject({ score: 30, decision: 'review', cancelRecommended: false });
    expect(scored({ buyerAgeHours: null, totalCents: 6_000, disposableEmail: true })).toMatchObject({ score: 35, decision: 'review' });
    expect(scored({ providerRisk: 'elevated', maxCopiesOfTitle: 3, threeDSecure: true, undisputedOldOrders: 3 })).toMatchObject({ score: 20, decision: 'accept' });
    expect(scored({ providerRisk: 'elevated', untrustedSignIn: true })).toMatchObject({ score: 65, decision: 'review', cancelRecommended: false });
    expect(scored({ sellerCashOut: true, disposableEmail: true })).toMatchObject({ score: 70, decision: 'review', cancelRecommended: true });
    const everything = scored({ providerRisk: 'elevated', sellerCashOut: true, maxCopiesOfTitle: 5, untrustedSignIn: true });
    expect(everything).toMatchObject({ score: 100, decision: 'review', cancelRecommended: true });
    expect(everything.facts.map((fact) => fact.weight).reduce((a, b) => a + b)).toBe(145);
  });

  it.each([
    [29, 'accept', false],
    [30, 'review', false],
    [69, 'review', false],
    [70, 'review', true],
  ] as const)('decides a score of %i: %s (cancel recommended: %s)', (weight, decision, cancelRecommended) => {
    const rules: RiskRule[] = [{ id: 'copies', signal: 'many-copies', weight, hard: false }];
    expect(assess({ version: 2, rules }, { ...quiet, maxCopiesOfTitle: 3 })).toMatchObject({ score: weight, decision, cancelRecommended });
  });

  it.each([
    ['card-testing', { cardTesting: true }, "3 declined payments in 10 minutes from this buyer's e-mail, address or browser"],
    ['provider-risk-highest', { providerRisk: 'highest' }, "The payment provider rates this payment's risk as highest"],
    ['blocklist', { blocklisted: true }, 'The e-mail, card, address or browser is on the blocklist'],
  ] as const)('blocks on the hard signal %s, whatever else is seen', (signal, changes, note) => {
    const assessment = scored({ ...changes, threeDSecure: true, undisputedOldOrders: 10 });
    expect(assessment.decision).toBe('block');
    expect(assessment.cancelRecommended).toBe(false);
    expect(assessment.facts.find((fact) => fact.signal === signal)).toMatchObject({ weight: 100, note });
    expect(assessment.score).toBe(50);
  });

  it("follows the rule set it is given: its version, its weights, a rule made hard, a signal left out", () => {
    const rules: RiskRule[] = [
      { id: 'throwaway', signal: 'disposable-email', weight: 5, hard: true },
      { id: 'copies', signal: 'many-copies', weight: 80, hard: false },
    ];
    expect(assess({ version: 7, rules }, { ...quiet, disposableEmail: true })).toMatchObject({ rulesVersion: 7, score: 5, decision: 'block' });
    expect(assess({ version: 7, rules }, { ...quiet, maxCopiesOfTitle: 4, providerRisk: 'elevated' })).toMatchObject({ score: 80, decision: 'review', cancelRecommended: true });
    // Without the upper tier, a new buyer's €200 still weighs the lower one.
    expect(assess({ version: 8, rules: [{ id: 'new', signal: 'new-buyer-total-60', weight: 15, hard: false }] }, { ...quiet, buyerAgeHours: null, totalCents: 20_000 }).score).toBe(15);
  });
});
