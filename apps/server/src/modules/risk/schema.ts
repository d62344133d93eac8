import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import {
  BLOCKLIST_KINDS,
  FRAUD_OUTCOMES,
  RISK_DECISIONS,
  RISK_VERDICTS,
  type BlocklistKind,
  type FraudOutcome,
  type RiskDecision,
  type RiskFact,
  type RiskRule,
  type RiskSignals,
  type RiskVerdict,
} from '@keystore/contract';
import { listOf, moment } from '../../db/columns.ts';
import type { StoredIdentity } from './blocklist.ts';
import { orders } from '../orders/schema.ts';
import { users } from '../users/schema.ts';

/**
 * The risk desk's rule sets (issue 29), never changed: the one in force is the highest version. The
 * defaults are version 1 and are not stored, so the first version an owner writes is 2.
 */
export const riskRuleSets = pgTable(
  'risk_rule_sets',
  {
    version: integer('version').primaryKey(),
    rules: jsonb('rules').$type<RiskRule[]>().notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: moment('created_at').notNull().default(sql`now()`),
  },
  (table) => [check('risk_rule_sets_version_check', sql`${table.version} > 1`)],
);

/** The owner's additions to the bundled list of disposable e-mail domains. */
export const riskDisposableDomains = pgTable('risk_disposable_domains', {
  domain: text('domain').primaryKey(),
  addedBy: text('added_by').references(() => users.id, { onDelete: 'set null' }),
  addedAt: moment('added_at').notNull().default(sql`now()`),
});

/**
 * E-mails, cards, addresses and browsers refused outright. The value is kept only as a keyed hash
 * (identities.ts), so the table cannot be read back into a list of people; `hint` is a masked form
 * for the owner's eyes.
 */
export const riskBlocklist = pgTable(
  'risk_blocklist',
  {
    id: text('id').primaryKey(),
    kind: text('kind').$type<BlocklistKind>().notNull(),
    valueHash: text('value_hash').notNull(),
    hint: text('hint').notNull(),
    note: text('note').notNull().default(''),
    /** The admin who added it; null when the store did (a dispute). */
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: moment('created_at').notNull().default(sql`now()`),
  },
  (table) => [uniqueIndex('risk_blocklist_value_idx').on(table.valueHash), check('risk_blocklist_kind_check', sql`${table.kind} in (${listOf(BLOCKLIST_KINDS)})`)],
);

/**
 * Each identity (hashed e-mail, card, address or browser) that has had a payment declined: its row is
 * the lock that makes counting its declines exact across instances, and holds its card-testing lockout.
 */
export const riskDecliningIdentities = pgTable('risk_declining_identities', {
  identityHash: text('identity_hash').primaryKey(),
  lockedUntil: moment('locked_until'),
});

/** Declines of the last minutes per identity; older ones are removed as new ones come. */
export const riskDeclines = pgTable(
  'risk_declines',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    identityHash: text('identity_hash').notNull(),
    at: moment('at').notNull().default(sql`now()`),
  },
  (table) => [index('risk_declines_identity_idx').on(table.identityHash, table.at)],
);

/**
 * An order's assessment when it reached payment: the rule set's version, the score, the decision and
 * the facts behind it, with the observed values frozen (`signals`) so a backtest can replay them. A
 * person's verdict on an order held for review is recorded once (`decided_at`).
 */
export const riskAssessments = pgTable(
  'risk_assessments',
  {
    orderId: text('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    rulesVersion: integer('rules_version').notNull(),
    score: integer('score').notNull(),
    decision: text('decision').$type<RiskDecision>().notNull(),
    cancelRecommended: boolean('cancel_recommended').notNull(),
    facts: jsonb('facts').$type<RiskFact[]>().notNull(),
    signals: jsonb('signals').$type<RiskSignals>().notNull(),
    /** The buyer's e-mail, address, browser and card as keyed hashes with masked hints: what a dispute blocks. */
    identities: jsonb('identities').$type<StoredIdentity[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: moment('created_at').notNull().default(sql`now()`),
    verdict: text('verdict').$type<RiskVerdict>(),
    decidedAt: moment('decided_at'),
    /** The admin who decided; null when the review deadline did. */
    decidedBy: text('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decisionNote: text('decision_note'),
  },
  (table) => [
    index('risk_assessments_created_idx').on(table.createdAt),
    check('risk_assessments_score_check', sql`${table.score} between 0 and 100`),
    check('risk_assessments_decision_check', sql`${table.decision} in (${listOf(RISK_DECISIONS)})`),
    check('risk_assessments_verdict_check', sql`${table.verdict} is null or ${table.verdict} in (${listOf(RISK_VERDICTS)})`),
    check('risk_assessments_decided_check', sql`(${table.verdict} is null) = (${table.decidedAt} is null)`),
  ],
);

/**
 * What the orders module observed of an order at checkout (issue 29), kept until its payment is assessed:
 * the buyer's facts with the identities' checks (blocklist, card-testing lockout) made then, so the
 * payment adds only what the card tells. The identities are kept only as keyed hashes, for a later block.
 */
export const riskCheckouts = pgTable('risk_checkouts', {
  orderId: text('order_id')
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
  signals: jsonb('signals').$type<CheckoutSignals>().notNull(),
  identities: jsonb('identities').$type<StoredIdentity[]>().notNull(),
  createdAt: moment('created_at').notNull().default(sql`now()`),
});

/** The signals known at checkout: all but what the payment's card tells. */
export type CheckoutSignals = Omit<RiskSignals, 'providerRisk' | 'threeDSecure'>;

/** What later proved an order fraudulent, once per kind: the backtest's "caught" and the monthly dispute ratio. */
export const riskOutcomes = pgTable(
  'risk_outcomes',
  {
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<FraudOutcome>().notNull(),
    at: moment('at').notNull().default(sql`now()`),
  },
  (table) => [
    primaryKey({ columns: [table.orderId, table.kind] }),
    index('risk_outcomes_at_idx').on(table.at),
    check('risk_outcomes_kind_check', sql`${table.kind} in (${listOf(FRAUD_OUTCOMES)})`),
  ],
);
