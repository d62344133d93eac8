// The risk desk's scoring (issue 29), pure: a rule set over the values observed of one order. The same
// function decides at payment and replays a rule set over frozen values in a backtest.
import {
  CARD_TESTING,
  RISK_CANCEL_RECOMMENDED_FROM,
  RISK_REVIEW_FROM,
  RISK_SCORE_MAX,
  RISK_SIGNAL_LIMITS as limits,
  type RiskAssessment,
  type RiskDecision,
  type RiskFact,
  type RiskRule,
  type RiskSignal,
  type RiskSignals,
} from '@keystore/contract';

export interface RuleSet {
  version: number;
  rules: readonly RiskRule[];
}

/** What a signal saw when it fires: the value behind it and a sentence for the owner. */
interface Reading {
  value: RiskFact['value'];
  note: string;
}

const euro = (cents: number) => `€${(cents / 100).toFixed(2)}`;

function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${suffix}`;
}

const isNewBuyer = (signals: RiskSignals) => signals.buyerAgeHours === null || signals.buyerAgeHours < limits.newBuyerHours;

const newBuyerNote = (signals: RiskSignals) =>
  `${euro(signals.totalCents)} from ${signals.buyerAgeHours === null ? 'a guest' : `an account ${Math.floor(signals.buyerAgeHours)} hours old`}`;

/** Each signal's test: its reading when it fires on these values, undefined when it does not. */
const READINGS: { [Signal in RiskSignal]: (signals: RiskSignals) => Reading | undefined } = {
  'card-testing': (s) =>
    s.cardTesting ? { value: true, note: `${CARD_TESTING.declines} declined payments in ${CARD_TESTING.windowMinutes} minutes from this buyer's e-mail, address or browser` } : undefined,
  'provider-risk-elevated': (s) => (s.providerRisk === 'elevated' ? { value: s.providerRisk, note: "The payment provider rates this payment's risk as elevated" } : undefined),
  'provider-risk-highest': (s) => (s.providerRisk === 'highest' ? { value: s.providerRisk, note: "The payment provider rates this payment's risk as highest" } : undefined),
  'third-paid-order-24h': (s) => (s.paidOrders24h >= limits.paidOrdersIn24h ? { value: s.paidOrders24h, note: `${ordinal(s.paidOrders24h)} paid order in 24 hours` } : undefined),
  'many-copies': (s) =>
    s.maxCopiesOfTitle > limits.copiesOfTitle ? { value: s.maxCopiesOfTitle, note: `${s.maxCopiesOfTitle} copies of one title in this order or in 30 days` } : undefined,
  'new-buyer-total-60': (s) =>
    isNewBuyer(s) && s.totalCents >= limits.newBuyerTotalCents.lower ? { value: s.totalCents / 100, note: newBuyerNote(s) } : undefined,
  'new-buyer-total-150': (s) =>
    isNewBuyer(s) && s.totalCents >= limits.newBuyerTotalCents.upper ? { value: s.totalCents / 100, note: newBuyerNote(s) } : undefined,
  'untrusted-sign-in': (s) =>
    s.untrustedSignIn ? { value: true, note: 'A password reset, a sign-in from an address not trusted, or a change of how the account signs in, in the last 72 hours' } : undefined,
  'disposable-email': (s) => (s.disposableEmail ? { value: s.emailDomain, note: `Disposable e-mail domain ${s.emailDomain}` } : undefined),
  'seller-cash-out': (s) =>
    s.sellerCashOut ? { value: true, note: "The buyer is the seller of a line, or shares an address or browser with that seller's account" } : undefined,
  'three-d-secure': (s) => (s.threeDSecure ? { value: true, note: 'Authenticated with 3-D Secure' } : undefined),
  'loyal-buyer': (s) =>
    s.undisputedOldOrders >= limits.loyalOrders ? { value: s.undisputedOldOrders, note: `${s.undisputedOldOrders} undisputed orders older than ${limits.loyalAfterDays} days` } : undefined,
  'blocklist': (s) => (s.blocklisted ? { value: true, note: 'The e-mail, card, address or browser is on the blocklist' } : undefined),
};

/**
 * Scores one order: the facts are the rules whose signal fired, in the rule set's order; the score is
 * the sum of their weights, clamped to 0…100. Any hard rule that fired blocks; otherwise a score from
 * 30 holds the order for review, from 70 with "cancel recommended" (which only a review carries).
 */
export function assess(ruleSet: RuleSet, signals: RiskSignals): RiskAssessment {
  let fired = ruleSet.rules.flatMap((rule) => {
    const reading = READINGS[rule.signal](signals);
    return reading ? [{ rule, fact: { signal: rule.signal, value: reading.value, weight: rule.weight, note: reading.note } }] : [];
  });
  // A new buyer's two totals are tiers: from €150 the upper one counts instead of the lower, not on top of it.
  if (fired.some(({ rule }) => rule.signal === 'new-buyer-total-150')) fired = fired.filter(({ rule }) => rule.signal !== 'new-buyer-total-60');
  const sum = fired.reduce((total, { rule }) => total + rule.weight, 0);
  const score = Math.min(RISK_SCORE_MAX, Math.max(0, sum));
  const decision = decisionFor(score, fired.some(({ rule }) => rule.hard));
  return {
    rulesVersion: ruleSet.version,
    score,
    decision,
    cancelRecommended: decision === 'review' && score >= RISK_CANCEL_RECOMMENDED_FROM,
    facts: fired.map(({ fact }) => fact),
  };
}

function decisionFor(score: number, hard: boolean): RiskDecision {
  if (hard) return 'block';
  return score >= RISK_REVIEW_FROM ? 'review' : 'accept';
}
