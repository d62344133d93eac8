// The risk desk (issue 29): every order reaching payment is assessed under the rule set in force, from
// what the orders module observed of it and what this module knows of its buyer (the blocklist,
// card-testing lockouts, disposable domains); the observed values are frozen with the assessment so a
// backtest can replay another rule set over them. Fraud that surfaces later (disputes, fraud warnings,
// fraud refunds) is noted against the order for the backtest and the card networks' monthly ratio.
import {
  CARD_NETWORK_THRESHOLDS,
  type Backtest,
  type FraudOutcome,
  type OrderRisk,
  type RiskAssessment,
  type RiskFigures,
  type RiskRule,
  type RiskSignals,
  type RiskVerdict,
} from '@keystore/contract';
import { and, count, eq, exists, gt, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.ts';
import { assess } from './assess.ts';
import { Blocklist, type StoredIdentity } from './blocklist.ts';
import { CardTesting } from './card-testing.ts';
import { DisposableDomains } from './disposable.ts';
import { domainOf, IdentityHasher, type RiskIdentities } from './identities.ts';
import { RiskRuleSets } from './rule-sets.ts';
import { soldLines } from '../orders/ports.ts';
import { riskAssessments, riskCheckouts, riskOutcomes, type CheckoutSignals } from './schema.ts';

export type AssessmentRow = typeof riskAssessments.$inferSelect;

/** What the orders module observes of an order; the rest of the signals the risk desk finds itself from the buyer's identities. */
export type OrderFacts = Omit<RiskSignals, 'emailDomain' | 'disposableEmail' | 'blocklisted' | 'cardTesting'>;

/** What the orders module observes of an order at checkout: all but what its payment's card tells. */
export type CheckoutFacts = Omit<OrderFacts, 'providerRisk' | 'threeDSecure'>;

/** What a payment's card tells the risk desk (the test gateway's cards, or Stripe's charge). */
export interface CardScreening {
  /** The provider's fingerprint of the card (the same card gives the same one). */
  fingerprint?: string | undefined;
  providerRisk: RiskSignals['providerRisk'];
  threeDSecure: boolean;
}

export interface RiskDeps {
  database: Database;
  /** The secrets identities are hashed under: JWT_SECRET, then JWT_SECRET_PREVIOUS. */
  secrets: readonly string[];
}

/** Stored assessments replayed per batch, so a year of orders never sits in memory at once. */
const BACKTEST_BATCH = 1000;

/** The assessment as an answer shows it. */
export const toAssessment = (row: AssessmentRow): RiskAssessment => ({
  rulesVersion: row.rulesVersion,
  score: row.score,
  decision: row.decision,
  cancelRecommended: row.cancelRecommended,
  facts: row.facts,
});

/** The assessment with its decision, as the back office's order shows it. */
export const toOrderRisk = (row: AssessmentRow): OrderRisk => ({
  ...toAssessment(row),
  verdict: row.verdict,
  decidedAt: row.decidedAt?.toISOString() ?? null,
  decidedBy: row.decidedBy,
  decisionNote: row.decisionNote,
});

export class RiskService {
  readonly rules: RiskRuleSets;
  readonly disposable: DisposableDomains;
  readonly blocklist: Blocklist;
  readonly cardTesting: CardTesting;
  private readonly deps: RiskDeps;

  constructor(deps: RiskDeps) {
    this.deps = deps;
    const hasher = new IdentityHasher(deps.secrets);
    this.rules = new RiskRuleSets(deps.database);
    this.disposable = new DisposableDomains(deps.database);
    this.blocklist = new Blocklist(deps.database, hasher);
    this.cardTesting = new CardTesting(deps.database, hasher);
  }

  private get db() {
    return this.deps.database.db;
  }

  /** Keeps the rule set in force in memory, told of every change on any instance. */
  start(): Promise<void> {
    return this.rules.start();
  }

  stop(): Promise<void> {
    return this.rules.stop();
  }

  /**
   * Assesses an order in `tx` (the payment's transaction) under the rule set in force and stores it
   * with the values it was made from. Once per order: a second call answers the stored assessment.
   */
  async record(tx: Db, orderId: string, facts: OrderFacts, identities: RiskIdentities): Promise<AssessmentRow> {
    const stored = await this.assessmentOf(orderId, tx);
    if (stored) return stored;
    const emailDomain = domainOf(identities.email);
    const signals: RiskSignals = {
      ...facts,
      emailDomain,
      disposableEmail: await this.disposable.isDisposable(emailDomain, tx),
      blocklisted: await this.blocklist.isBlocked(identities, tx),
      cardTesting: await this.cardTesting.lockedOut(identities, tx),
    };
    return this.store(tx, orderId, signals, this.blocklist.storedOf(identities));
  }

  /** Assesses these values under the rule set in force and stores the assessment, unless the order has one already (which stands). */
  private async store(tx: Db, orderId: string, signals: RiskSignals, identities: StoredIdentity[]): Promise<AssessmentRow> {
    const ruleSet = await this.rules.inForce(tx);
    const assessment = assess(ruleSet, signals);
    const [row] = await tx
      .insert(riskAssessments)
      .values({ orderId, ...assessment, signals, identities })
      .onConflictDoNothing({ target: riskAssessments.orderId })
      .returning();
    // Assessed meanwhile by another instance: its assessment stands.
    return row ?? (await this.assessmentOf(orderId, tx))!;
  }

  /**
   * Notes what was observed of an order at checkout, in its placement's transaction, in one statement:
   * the buyer's facts with the identities' checks made now (disposable domain, blocklist), and the
   * identities' keyed hashes for a later block. The caller refused a card-testing lockout just before
   * (cardTesting.refuseIfLockedOut), so none is noted. The payment adds the card's facts (screen).
   */
  async prepare(tx: Db, orderId: string, facts: CheckoutFacts, identities: RiskIdentities): Promise<void> {
    const emailDomain = domainOf(identities.email);
    const known: Omit<CheckoutSignals, 'disposableEmail' | 'blocklisted'> = { ...facts, emailDomain, cardTesting: false };
    const checks = sql`jsonb_build_object('disposableEmail', (${this.disposable.disposes(emailDomain)})::boolean, 'blocklisted', (${this.blocklist.blocks(identities)})::boolean)`;
    await tx.execute(sql`insert into ${riskCheckouts} (order_id, signals, identities)
      values (${orderId}, ${JSON.stringify(known)}::jsonb || ${checks}, ${JSON.stringify(this.blocklist.storedOf(identities))}::jsonb)
      on conflict do nothing`);
  }

  /**
   * Assesses an order's payment in `tx` (the payment's transaction), from its checkout's facts and what
   * the card tells, under the rule set in force, and stores the assessment: one read, one write. Once
   * per order: a payment reported again answers the stored one. Undefined for an order placed before
   * the risk desk (no checkout facts).
   */
  async screen(tx: Db, orderId: string, card: CardScreening): Promise<AssessmentRow | undefined> {
    const [checkout] = await tx
      .select({ signals: riskCheckouts.signals, identities: riskCheckouts.identities, cardBlocked: this.blocklist.blocks({ card: card.fingerprint }) })
      .from(riskCheckouts)
      .where(eq(riskCheckouts.orderId, orderId));
    if (!checkout) return undefined;
    const signals: RiskSignals = {
      ...checkout.signals,
      providerRisk: card.providerRisk,
      threeDSecure: card.threeDSecure,
      blocklisted: checkout.signals.blocklisted || checkout.cardBlocked,
    };
    return this.store(tx, orderId, signals, [...checkout.identities, ...this.blocklist.storedOf({ card: card.fingerprint })]);
  }

  /**
   * Fraud proved on an order (issue 29: a dispute, a fraud warning): noted once per kind for the backtest
   * and the monthly ratio, and its buyer's e-mail, address, browser and card (as its checkout and payment
   * noted them) put on the blocklist. Answers whether the outcome was new.
   */
  async fraudProved(tx: Db, orderId: string, kind: FraudOutcome, note: string): Promise<boolean> {
    const fresh = await this.noteOutcome(tx, orderId, kind);
    const [row] = await tx.select({ identities: riskAssessments.identities }).from(riskAssessments).where(eq(riskAssessments.orderId, orderId));
    await this.blocklist.blockStored(tx, row?.identities ?? [], note);
    return fresh;
  }

  async assessmentOf(orderId: string, db: Db = this.db): Promise<AssessmentRow | undefined> {
    const [row] = await db.select().from(riskAssessments).where(eq(riskAssessments.orderId, orderId));
    return row;
  }

  /** The assessments of some orders, by order id (a queue or a list of orders). */
  async assessmentsOf(orderIds: string[], db: Db = this.db): Promise<Map<string, AssessmentRow>> {
    if (orderIds.length === 0) return new Map();
    const rows = await db.select().from(riskAssessments).where(inArray(riskAssessments.orderId, orderIds));
    return new Map(rows.map((row) => [row.orderId, row]));
  }

  /** Notes that an order proved fraudulent (once per kind); answers whether this was new. */
  async noteOutcome(tx: Db, orderId: string, kind: FraudOutcome): Promise<boolean> {
    const written = await tx.insert(riskOutcomes).values({ orderId, kind }).onConflictDoNothing().returning({ orderId: riskOutcomes.orderId });
    return written.length > 0;
  }

  /**
   * Records the decision on an order held for review: `by` an admin, or null when the review deadline
   * decides. Answers false when the order has no assessment or was decided already, by anyone: the
   * update is conditional, so two instances never both decide one order.
   */
  async decide(tx: Db, orderId: string, verdict: RiskVerdict, by: string | null, note: string): Promise<boolean> {
    const decided = await tx
      .update(riskAssessments)
      .set({ verdict, decidedAt: sql`now()`, decidedBy: by, decisionNote: note })
      .where(and(eq(riskAssessments.orderId, orderId), isNull(riskAssessments.decidedAt)))
      .returning({ orderId: riskAssessments.orderId });
    return decided.length > 0;
  }

  /**
   * Replays `rules` over the values frozen with each assessment made in [from, to): how many orders it
   * would hold (review or block), how many of those later proved fraudulent (caught) or did not
   * (delayed), and which orders it would decide otherwise than was decided at the time.
   */
  async backtest(rules: RiskRule[], from: Date, to: Date): Promise<Backtest> {
    const result: Backtest = { orders: 0, held: 0, caught: 0, delayed: 0, changed: [] };
    const fraudulent = exists(this.db.select({ one: sql`1` }).from(riskOutcomes).where(eq(riskOutcomes.orderId, riskAssessments.orderId)));
    let after = '';
    for (;;) {
      const batch = await this.db
        .select({ orderId: riskAssessments.orderId, decision: riskAssessments.decision, signals: riskAssessments.signals, fraudulent: sql<boolean>`${fraudulent}` })
        .from(riskAssessments)
        .where(and(gte(riskAssessments.createdAt, from), lt(riskAssessments.createdAt, to), gt(riskAssessments.orderId, after)))
        .orderBy(riskAssessments.orderId)
        .limit(BACKTEST_BATCH);
      for (const row of batch) {
        const { decision } = assess({ version: 0, rules }, row.signals);
        result.orders += 1;
        if (decision !== 'accept') {
          result.held += 1;
          if (row.fraudulent) result.caught += 1;
          else result.delayed += 1;
        }
        if (decision !== row.decision) result.changed.push(row.orderId);
      }
      if (batch.length < BACKTEST_BATCH) return result;
      after = batch.at(-1)!.orderId;
    }
  }

  /**
   * One calendar month (UTC) as the card networks count it: disputes and fraud warnings over paid
   * orders, beside their thresholds, with the store's alarm from 0.5 %.
   */
  async figures(month: string): Promise<RiskFigures> {
    const [year, monthNumber] = month.split('-').map(Number) as [number, number];
    const from = new Date(Date.UTC(year, monthNumber - 1, 1));
    const to = new Date(Date.UTC(year, monthNumber, 1));
    const outcomes = await this.db
      .select({ kind: riskOutcomes.kind, n: count() })
      .from(riskOutcomes)
      .where(and(gte(riskOutcomes.at, from), lt(riskOutcomes.at, to)))
      .groupBy(riskOutcomes.kind);
    const counted = (kind: FraudOutcome) => outcomes.find((row) => row.kind === kind)?.n ?? 0;
    const disputes = counted('dispute');
    const fraudWarnings = counted('early-fraud-warning');
    const sales = await paidOrdersIn(this.db, from, to);
    const frauds = disputes + fraudWarnings;
    const ratio = sales > 0 ? frauds / sales : 0;
    // Frauds in a month without sales (disputes arrive weeks after the sale) have no ratio, but still ring.
    const alarm = sales > 0 ? ratio >= CARD_NETWORK_THRESHOLDS.alarm : frauds > 0;
    return { month, disputes, fraudWarnings, sales, ratio, thresholds: { ...CARD_NETWORK_THRESHOLDS }, alarm };
  }
}

/** Orders paid in [from, to): the sales of the monthly dispute ratio, read from the orders module's read model (decision 033). */
async function paidOrdersIn(db: Db, from: Date, to: Date): Promise<number> {
  const [row] = await db
    .select({ sales: sql<number>`count(distinct ${soldLines.orderId})::int` })
    .from(soldLines)
    .where(and(gte(soldLines.paidAt, from), lt(soldLines.paidAt, to)));
  return row?.sales ?? 0;
}
