// Requests and answers of the risk desk (issue 29): /api/admin/risk/*, and the assessment an order
// carries. The limits, defaults and texts they use are zod-free, in risk-rules.ts.
import { z } from 'zod';
import { idField, safeText } from './fields.ts';
import {
  BACKTEST_MAX_DAYS,
  BLOCKLIST_KINDS,
  BLOCKLIST_NOTE_MAX,
  BLOCKLIST_VALUE_MAX,
  DISPOSABLE_DOMAINS_MAX,
  PROVIDER_RISK_LEVELS,
  RISK_DECISIONS,
  RISK_RULES_MAX,
  RISK_SIGNALS,
  RISK_VERDICTS,
  RISK_WEIGHT_MAX,
  riskMessages as m,
} from './risk-rules.ts';

// --- Rules -------------------------------------------------------------------------------------

export const riskRuleSchema = z
  .object({
    id: z.string({ error: m.ruleIdInvalid }).regex(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/, m.ruleIdInvalid),
    signal: z.enum(RISK_SIGNALS, { error: m.signalUnknown }),
    weight: z.number({ error: m.weightInvalid }).int(m.weightInvalid).min(-RISK_WEIGHT_MAX, m.weightInvalid).max(RISK_WEIGHT_MAX, m.weightInvalid),
    hard: z.boolean({ error: m.hardInvalid }),
  })
  .meta({ id: 'RiskRule' });
export type RiskRule = z.infer<typeof riskRuleSchema>;

/** A rule set: ids unique, and one rule per signal (two would count one fact twice). */
export const riskRulesSchema = z
  .array(riskRuleSchema, { error: m.rulesRequired })
  .min(1, m.rulesRequired)
  .max(RISK_RULES_MAX, m.tooManyRules)
  .superRefine((rules, context) => {
    const firstTwice = (values: string[]) => values.find((value, index) => values.indexOf(value) !== index);
    const id = firstTwice(rules.map((rule) => rule.id));
    if (id !== undefined) context.addIssue({ code: 'custom', message: m.ruleIdTwice(id) });
    const signal = firstTwice(rules.map((rule) => rule.signal));
    if (signal !== undefined) context.addIssue({ code: 'custom', message: m.signalTwice(signal) });
  });

/** PUT /api/admin/risk/rules: the next version's rules. */
export const riskRulesUpdateSchema = z.object({ rules: riskRulesSchema });
export type RiskRulesUpdate = z.input<typeof riskRulesUpdateSchema>;

/** GET and PUT /api/admin/risk/rules: the rule set in force, the highest version (1: the defaults, never stored). */
export const riskRuleSetSchema = z
  .object({
    version: z.number().int(),
    rules: z.array(riskRuleSchema),
    createdAt: z.string().nullable(),
    /** The admin who wrote this version; null for the defaults. */
    createdBy: z.string().nullable(),
  })
  .meta({ id: 'RiskRuleSet' });
export type RiskRuleSet = z.infer<typeof riskRuleSetSchema>;

// --- Assessments -------------------------------------------------------------------------------

/** What was observed of an order when it reached payment, frozen with its assessment so a rule set can be replayed over it. */
export const riskSignalsSchema = z
  .object({
    providerRisk: z.enum(PROVIDER_RISK_LEVELS),
    /** Paid orders of the buyer's e-mail or account in the last 24 hours, this one included. */
    paidOrders24h: z.number().int().min(0),
    /** The most copies of one title, in this order or bought by the buyer in 30 days (this order included). */
    maxCopiesOfTitle: z.number().int().min(0),
    /** The account's age in hours; null for a guest. */
    buyerAgeHours: z.number().min(0).nullable(),
    totalCents: z.number().int().min(0),
    /** A password reset, a sign-in from an address not trusted, or a change of how the account signs in (issue 30), in the last 72 hours. */
    untrustedSignIn: z.boolean(),
    emailDomain: z.string(),
    disposableEmail: z.boolean(),
    /** The buyer is the seller of a line, or shares its address or browser with that seller's account. */
    sellerCashOut: z.boolean(),
    threeDSecure: z.boolean(),
    /** The buyer's undisputed orders older than 120 days. */
    undisputedOldOrders: z.number().int().min(0),
    blocklisted: z.boolean(),
    /** The buyer's e-mail, address or browser is locked out for card testing. */
    cardTesting: z.boolean(),
  })
  .meta({ id: 'RiskSignals' });
export type RiskSignals = z.infer<typeof riskSignalsSchema>;

/** A signal that fired: what was seen, what it weighed, and a sentence for the owner. */
export const riskFactSchema = z
  .object({
    signal: z.enum(RISK_SIGNALS),
    value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
    weight: z.number().int(),
    note: z.string(),
  })
  .meta({ id: 'RiskFact' });
export type RiskFact = z.infer<typeof riskFactSchema>;

export const riskAssessmentSchema = z
  .object({
    rulesVersion: z.number().int(),
    score: z.number().int().min(0).max(100),
    decision: z.enum(RISK_DECISIONS),
    cancelRecommended: z.boolean(),
    facts: z.array(riskFactSchema),
  })
  .meta({ id: 'RiskAssessment' });
export type RiskAssessment = z.infer<typeof riskAssessmentSchema>;

// --- Disposable e-mail domains -----------------------------------------------------------------

const domainField = safeText(m.domainInvalid)
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, m.domainInvalid);

/** PUT /api/admin/risk/disposable-domains: the owner's additions to the bundled list, all of them. */
export const disposableDomainsUpdateSchema = z.object({
  domains: z.array(domainField, { error: m.domainInvalid }).max(DISPOSABLE_DOMAINS_MAX, m.tooManyDomains),
});
export type DisposableDomainsUpdate = z.input<typeof disposableDomainsUpdateSchema>;

export const disposableDomainsSchema = z
  .object({
    /** How many domains the store bundles. */
    bundled: z.number().int(),
    /** The owner's additions, alphabetical. */
    domains: z.array(z.string()),
  })
  .meta({ id: 'DisposableDomains' });
export type DisposableDomains = z.infer<typeof disposableDomainsSchema>;

// --- Blocklist ---------------------------------------------------------------------------------

const EMAIL_VALUE = /^[^\s@]+@[^\s@]+$/;
const IPV4_VALUE = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const IPV6_VALUE = /^[0-9a-f:.]*:[0-9a-f:.]*$/i;

/** POST /api/admin/risk/blocklist: what to block. The value is hashed at once; only a masked hint of it is kept. */
export const blocklistCreateSchema = z
  .object({
    kind: z.enum(BLOCKLIST_KINDS, { error: m.kindInvalid }),
    value: safeText(m.valueRequired).trim().min(1, m.valueRequired).max(BLOCKLIST_VALUE_MAX, m.valueTooLong),
    note: safeText().trim().max(BLOCKLIST_NOTE_MAX, m.noteTooLong).default(''),
  })
  .superRefine(({ kind, value }, context) => {
    if (kind === 'email' && !EMAIL_VALUE.test(value)) context.addIssue({ code: 'custom', path: ['value'], message: m.emailValueInvalid });
    if (kind === 'address' && !IPV4_VALUE.test(value) && !IPV6_VALUE.test(value)) context.addIssue({ code: 'custom', path: ['value'], message: m.addressValueInvalid });
  });
export type BlocklistCreate = z.input<typeof blocklistCreateSchema>;

export const blocklistIdParamsSchema = z.object({ id: idField(m.blocklistEntryNotFound) });

export const blocklistEntrySchema = z
  .object({
    _id: z.string(),
    kind: z.enum(BLOCKLIST_KINDS),
    /** A masked hint of the value (`j***@example.com`, `card …4242`, `203.0.113.*`), never the value. */
    hint: z.string(),
    note: z.string(),
    createdAt: z.string(),
    /** The admin who added it; null when the store did (a dispute). */
    createdBy: z.string().nullable(),
  })
  .meta({ id: 'BlocklistEntry' });
export type BlocklistEntry = z.infer<typeof blocklistEntrySchema>;
export const blocklistSchema = z.array(blocklistEntrySchema).meta({ id: 'Blocklist' });

// --- Backtest and the monthly figure -----------------------------------------------------------

/** A year the store can have sold in (1970 on): year 0 and the like are neither JavaScript's nor PostgreSQL's. */
const YEAR = String.raw`(?:19[7-9]\d|[2-9]\d{3})`;
const ISO_MOMENT = new RegExp(String.raw`^(${YEAR}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:\d{2}))?$`);

/** A date (midnight UTC) or a moment with its offset, as a Date; 2026-02-30 is refused. */
const isoMoment = safeText(m.dateInvalid)
  .refine((text) => {
    const day = ISO_MOMENT.exec(text)?.[1];
    return day !== undefined && !Number.isNaN(Date.parse(text)) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day);
  }, m.dateInvalid)
  .transform((text) => new Date(text));

const DAY_MS = 24 * 60 * 60 * 1000;

/** POST /api/admin/risk/backtest: a rule set to replay over the assessments made in [from, to). */
export const backtestRequestSchema = z
  .object({ rules: riskRulesSchema, from: isoMoment, to: isoMoment })
  .refine(({ from, to }) => from < to && to.getTime() - from.getTime() <= BACKTEST_MAX_DAYS * DAY_MS, {
    message: m.periodInvalid,
    path: ['to'],
    // Only two dates make a period: with a field refused, its text was never made a Date.
    when: (payload) => payload.issues.length === 0,
  });
export type BacktestRequest = z.input<typeof backtestRequestSchema>;

export const backtestSchema = z
  .object({
    /** Orders assessed in the period. */
    orders: z.number().int(),
    /** Orders the rules would hold (review or block). */
    held: z.number().int(),
    /** Held orders that later proved fraudulent (dispute, fraud warning, fraud refund). */
    caught: z.number().int(),
    /** Held orders that did not: good sales the rules would have delayed. */
    delayed: z.number().int(),
    /** Orders whose decision differs from the one made at the time. */
    changed: z.array(z.string()),
  })
  .meta({ id: 'Backtest' });
export type Backtest = z.infer<typeof backtestSchema>;

/** GET /api/admin/risk/figures?month=YYYY-MM (default: this month, UTC). */
export const riskFiguresQuerySchema = z.object({
  month: safeText(m.monthInvalid)
    .regex(new RegExp(`^${YEAR}-(?:0[1-9]|1[0-2])$`), m.monthInvalid)
    .optional(),
});

export const riskFiguresSchema = z
  .object({
    month: z.string(),
    disputes: z.number().int(),
    fraudWarnings: z.number().int(),
    /** Paid orders of the month. */
    sales: z.number().int(),
    /** (disputes + fraud warnings) / sales; 0 without sales. */
    ratio: z.number(),
    thresholds: z.object({ alarm: z.number(), excessive: z.number() }),
    alarm: z.boolean(),
  })
  .meta({ id: 'RiskFigures' });
export type RiskFigures = z.infer<typeof riskFiguresSchema>;

// --- Review holds ------------------------------------------------------------------------------

/** An order's assessment as the back office shows it, with the decision on it once one was made. */
export const orderRiskSchema = riskAssessmentSchema
  .extend({
    verdict: z.enum(RISK_VERDICTS).nullable(),
    decidedAt: z.string().nullable(),
    /** The admin who decided; null when the review deadline did (or nobody yet). */
    decidedBy: z.string().nullable(),
    decisionNote: z.string().nullable(),
  })
  .meta({ id: 'OrderRisk' });
export type OrderRisk = z.infer<typeof orderRiskSchema>;

/** POST /api/admin/orders/{id}/approve and /cancel: why, for the order's timeline. */
export const reviewDecisionSchema = z.object({
  note: safeText().trim().max(BLOCKLIST_NOTE_MAX, m.reviewNoteTooLong).default(''),
});
export type ReviewDecision = z.input<typeof reviewDecisionSchema>;

/** GET /api/admin/risk/queue: the orders in review, oldest first. */
export const riskQueueEntrySchema = z
  .object({
    orderId: z.string(),
    placedAt: z.string(),
    /** The buyer's e-mail (a guest's, or the account's). */
    email: z.string().nullable(),
    amount: z.number(),
    score: z.number().int(),
    cancelRecommended: z.boolean(),
    facts: z.array(riskFactSchema),
    /** When the review deadline decides it (12 hours before the authorisation lapses). */
    decideBy: z.string(),
  })
  .meta({ id: 'RiskQueueEntry' });
export const riskQueueSchema = z.array(riskQueueEntrySchema).meta({ id: 'RiskQueue' });
export type RiskQueueEntry = z.infer<typeof riskQueueEntrySchema>;
