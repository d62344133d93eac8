// The risk desk without zod (issue 29): the signals an order's assessment weighs, their default rule
// set, the thresholds of its decision, the card-testing lockout and the card networks' dispute ratios.
// Shared by the schemas in risk.ts, the server and the back office's web chunk
// (`@keystore/contract/risk-rules`).

/** Every signal a rule can weigh; a rule set names each at most once. */
export const RISK_SIGNALS = [
  'card-testing',
  'provider-risk-elevated',
  'provider-risk-highest',
  'third-paid-order-24h',
  'many-copies',
  'new-buyer-total-60',
  'new-buyer-total-150',
  'untrusted-sign-in',
  'disposable-email',
  'seller-cash-out',
  'three-d-secure',
  'loyal-buyer',
  'blocklist',
] as const;
export type RiskSignal = (typeof RISK_SIGNALS)[number];

/** What an assessment decides: pay and deliver at once, hold for a person, or refuse. */
export const RISK_DECISIONS = ['accept', 'review', 'block'] as const;
export type RiskDecision = (typeof RISK_DECISIONS)[number];

/** The payment provider's own rating of a payment (Stripe's `outcome.risk_level`; the test gateway's risk cards). */
export const PROVIDER_RISK_LEVELS = ['normal', 'elevated', 'highest'] as const;
export type ProviderRiskLevel = (typeof PROVIDER_RISK_LEVELS)[number];

/** A score from this is held for review … */
export const RISK_REVIEW_FROM = 30;
/** … and from this, held with "cancel recommended". */
export const RISK_CANCEL_RECOMMENDED_FROM = 70;
/** Scores are clamped to 0…100. */
export const RISK_SCORE_MAX = 100;
/** A rule's weight lies within ±this. */
export const RISK_WEIGHT_MAX = 100;
export const RISK_RULES_MAX = 50;

/** Where each signal fires: the values of the rules. */
export const RISK_SIGNAL_LIMITS = {
  /** This many paid orders in 24 hours for one e-mail or account, the one assessed included. */
  paidOrdersIn24h: 3,
  /** More than this many copies of one title in the order, or for the buyer in 30 days. */
  copiesOfTitle: 2,
  /** A guest, or an account younger than this, is a new buyer. */
  newBuyerHours: 24,
  newBuyerTotalCents: { lower: 6_000, upper: 15_000 },
  /** A buyer with this many undisputed orders older than `loyalAfterDays` is a loyal one. */
  loyalOrders: 3,
  loyalAfterDays: 120,
} as const;

/** The rule set every store starts with (version 1): the signals and weights. A hard rule blocks whatever the score. */
export const DEFAULT_RISK_RULES = [
  { id: 'card-testing', signal: 'card-testing', weight: 100, hard: true },
  { id: 'provider-risk-elevated', signal: 'provider-risk-elevated', weight: 40, hard: false },
  { id: 'provider-risk-highest', signal: 'provider-risk-highest', weight: 100, hard: true },
  { id: 'third-paid-order-24h', signal: 'third-paid-order-24h', weight: 25, hard: false },
  { id: 'many-copies', signal: 'many-copies', weight: 30, hard: false },
  { id: 'new-buyer-total-60', signal: 'new-buyer-total-60', weight: 15, hard: false },
  { id: 'new-buyer-total-150', signal: 'new-buyer-total-150', weight: 30, hard: false },
  { id: 'untrusted-sign-in', signal: 'untrusted-sign-in', weight: 25, hard: false },
  { id: 'disposable-email', signal: 'disposable-email', weight: 20, hard: false },
  { id: 'seller-cash-out', signal: 'seller-cash-out', weight: 50, hard: false },
  { id: 'three-d-secure', signal: 'three-d-secure', weight: -30, hard: false },
  { id: 'loyal-buyer', signal: 'loyal-buyer', weight: -20, hard: false },
  { id: 'blocklist', signal: 'blocklist', weight: 100, hard: true },
] as const satisfies ReadonlyArray<{ id: string; signal: RiskSignal; weight: number; hard: boolean }>;

/** Declines of one e-mail, address or browser that lock it out (card testing), within how long, and for how long. */
export const CARD_TESTING = { declines: 3, windowMinutes: 10, lockoutHours: 24 } as const;

/** What a blocklist entry names; its value is kept only as a keyed hash. */
export const BLOCKLIST_KINDS = ['email', 'card', 'address', 'browser'] as const;
export type BlocklistKind = (typeof BLOCKLIST_KINDS)[number];
export const BLOCKLIST_VALUE_MAX = 254;
export const BLOCKLIST_NOTE_MAX = 500;

/** What later proved an order fraudulent. */
export const FRAUD_OUTCOMES = ['dispute', 'early-fraud-warning', 'fraud-refund'] as const;
export type FraudOutcome = (typeof FRAUD_OUTCOMES)[number];

/** A person's (or the review deadline's) decision on an order in review. */
export const RISK_VERDICTS = ['approved', 'cancelled'] as const;
export type RiskVerdict = (typeof RISK_VERDICTS)[number];

/**
 * Review holds: a card authorisation lasts this long (Stripe's, for online card payments), and an order
 * nobody decided this many hours before it lapses is decided by its score: approved under the bar, else cancelled.
 */
export const AUTHORISATION_DAYS = 7;
export const REVIEW_DEADLINE_HOURS = 12;
export const REVIEW_AUTO_APPROVE_BELOW = 50;

/**
 * The test gateway's cards for the risk desk (issue 29), the numbers Stripe's test mode uses for the
 * same outcomes; kept apart from TEST_CARDS, which the store's first view carries.
 */
export const RISK_TEST_CARDS = {
  /** Pays, rated elevated risk: held for review. */
  elevatedRisk: '4000000000009235',
  /** Refused as highest risk. */
  highestRisk: '4100000000000019',
  /** Pays, and is disputed as fraudulent a few seconds later. */
  disputed: '4000000000000259',
} as const;

/** What the card network charges the store for a dispute, win or lose (Stripe's fee in the EU), when the provider does not say. */
export const DISPUTE_FEE_CENTS = 2_000;
/** How long after its payment the test gateway's disputed card (4000 0000 0000 0259) is disputed. */
export const TEST_DISPUTE_AFTER_SECONDS = 5;

/**
 * Disputes and fraud warnings over sales, as the card networks count them (Visa VAMP, EU and US from
 * April 2026): the store's alarm rings from `alarm`, well before the networks' `excessive`.
 */
export const CARD_NETWORK_THRESHOLDS = { alarm: 0.005, excessive: 0.015 } as const;

/** Owner additions to the bundled disposable e-mail domains. */
export const DISPOSABLE_DOMAINS_MAX = 2_000;
/** The longest period one backtest replays. */
export const BACKTEST_MAX_DAYS = 366;

export const riskMessages = {
  /** New orders and payments of an e-mail, address or browser locked out for card testing: answered with 429. */
  cardTestingLockout: 'Too many declined payments. Please try again tomorrow or contact support.',
  rulesRequired: 'A rule set needs at least one rule.',
  tooManyRules: `A rule set can have at most ${RISK_RULES_MAX} rules.`,
  ruleIdInvalid: 'A rule id is 1 to 40 lowercase letters, digits and dashes.',
  ruleIdTwice: (id: string) => `The rule id "${id}" is used twice.`,
  signalUnknown: `A rule's signal must be one of: ${RISK_SIGNALS.join(', ')}.`,
  signalTwice: (signal: string) => `The signal "${signal}" has two rules: give it one.`,
  weightInvalid: `A weight is a whole number from -${RISK_WEIGHT_MAX} to ${RISK_WEIGHT_MAX}.`,
  hardInvalid: 'Say whether each rule is hard (true or false).',
  domainInvalid: 'Each domain must be a domain name such as mailinator.com.',
  tooManyDomains: `At most ${DISPOSABLE_DOMAINS_MAX} domains can be added.`,
  kindInvalid: `The kind must be one of: ${BLOCKLIST_KINDS.join(', ')}.`,
  valueRequired: 'Please give the value to block.',
  emailValueInvalid: 'Please give a valid e-mail address.',
  addressValueInvalid: 'Please give an IP address, such as 203.0.113.7.',
  valueTooLong: `A value can be at most ${BLOCKLIST_VALUE_MAX} characters.`,
  noteTooLong: `A note can be at most ${BLOCKLIST_NOTE_MAX} characters.`,
  alreadyBlocked: 'This is already on the blocklist.',
  blocklistEntryNotFound: 'Blocklist entry not found',
  dateInvalid: 'Dates must be ISO dates, such as 2026-05-01 or 2026-05-01T12:00:00Z.',
  periodInvalid: `The period must start before it ends and span at most ${BACKTEST_MAX_DAYS} days.`,
  monthInvalid: 'The month must be written as YYYY-MM.',
  /** The order answer's statusNote for an order in review, and the pay page's message: the truth, without the signals. */
  inReviewNote:
    'Payment authorised, not charged. We check a small share of orders by hand, usually within a few hours. If we cannot approve it, the hold is released and you pay nothing.',
  /** Paying (or cancelling) an order already held for review. */
  orderInReview: 'This order is being checked before its keys go out: its payment is authorised, not charged.',
  /** A payment refused outright by the risk desk (a blocked card, e-mail, address or browser, or the provider's highest risk). */
  paymentRefused: 'We could not accept this payment. Nothing was charged. Please contact support if you think this is a mistake.',
  /** POST /api/admin/orders/{id}/approve or /cancel on an order not in review. */
  notInReview: 'This order is not waiting for review.',
  /** The timeline's note when the review deadline decides. */
  approvedUnreviewed: 'Approved automatically: not reviewed in time, and its score is low.',
  notReviewedInTime: 'Cancelled: not reviewed in time.',
  /** The buyer's order answer after a cancelled review. */
  reviewCancelledNote: 'We could not approve this order, so the hold on your payment was released: you pay nothing.',
  /** Paying or refunding an order whose payment was disputed. */
  orderDisputed: 'The payment for this order was disputed with the card issuer, and its keys were taken back.',
  /** The timeline's reasons of a dispute's steps. */
  disputeOpened: 'The card holder disputed the payment: the card network took the money back. Unrevealed keys taken back, the buyer blocked.',
  fraudWarningRefund: 'The card issuer warned of fraud: refunded as fraudulent, unrevealed keys taken back, the buyer blocked.',
  reviewNoteTooLong: `A note can be at most ${BLOCKLIST_NOTE_MAX} characters.`,
} as const;
