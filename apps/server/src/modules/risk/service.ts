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
import { and, count, eq, exists, gt, gte, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database, type Db } from '../../db/client.ts';
import { assess } from './assess.ts';
import { Blocklist, type StoredIdentity } from './blocklist.ts';
import { CardTesting, refuseLockout } from './card-testing.ts';
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

/** A payment judged (RiskService.judge): its assessment, and how to store it (once per order; a stored one is answered as it is). */
export interface Judgement {
  assessment: Pick<AssessmentRow, 'decision' | 'score' | 'cancelRecommended'>;
  keep(db: Db): Promise<AssessmentRow>;
  /**
   * The assessment's insert, to run inside another module's statement that moves the order: a
   * data-modifying CTE that stores it only when that statement's CTE `moved` has a row (so nobody
   * but the order's payer leaves one). Undefined when it is stored already.
   */
  keptWithMove: SQL | undefined;
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
    return this.assessAndStore(tx, orderId, signals, this.blocklist.storedOf(identities));
  }

  /** Assesses these values under the rule set in force and stores the assessment, unless the order has one already (which stands). */
  private async assessAndStore(tx: Db, orderId: string, signals: RiskSignals, identities: StoredIdentity[]): Promise<AssessmentRow> {
    return this.store(tx, orderId, assess(await this.rules.inForce(tx), signals), signals, identities);
  }

  /** Stores an assessment, unless the order has one already (which stands, and is answered). */
  private async store(db: Db, orderId: string, assessment: RiskAssessment, signals: RiskSignals, identities: StoredIdentity[]): Promise<AssessmentRow> {
    const [row] = await db
      .insert(riskAssessments)
      .values({ orderId, ...assessment, signals, identities })
      .onConflictDoNothing({ target: riskAssessments.orderId })
      .returning();
    // Assessed meanwhile by another instance: its assessment stands.
    return row ?? (await this.assessmentOf(orderId, db))!;
  }

  /**
   * Notes what was observed of an order at checkout, in its placement's transaction, in one statement:
   * the buyer's facts (`facts`: the orders module's query of one row, its `facts` column the
   * CheckoutFacts as JSON) with the identities' checks made now (disposable domain, blocklist), and
   * the identities' keyed hashes for a later block. An identity locked out for card testing gets 429
   * (the placement rolls back). The payment adds the card's facts (judge).
   */
  async prepare(tx: Db, orderId: string, facts: SQL, identities: RiskIdentities): Promise<void> {
    const emailDomain = domainOf(identities.email);
    const checks = sql`jsonb_build_object('emailDomain', ${emailDomain}::text, 'cardTesting', false,
      'disposableEmail', (${this.disposable.disposes(emailDomain)})::boolean, 'blocklisted', (${this.blocklist.blocks(identities)})::boolean)`;
    const [row] = await queryRows<{ left: number | null }>(
      tx,
      sql`with observed as (${facts}),
          noted as (
            insert into ${riskCheckouts} (order_id, signals, identities)
            select ${orderId}, observed.facts || ${checks}, ${JSON.stringify(this.blocklist.storedOf(identities))}::jsonb from observed
            on conflict do nothing)
          select ${this.cardTesting.secondsLeft(identities)} as left`,
    );
    refuseLockout(row!.left);
  }

  /**
   * Judges an order's payment from its checkout's facts and what the card tells, under the rule set in
   * force, in one read: the assessment to keep (or the one kept already, for a payment reported again).
   * Throws 429 while the payer's address or browser (`payer`) is locked out for card testing. Undefined
   * for an order placed before the risk desk (no checkout facts). Nothing is written: `keep` stores it.
   */
  async judge(db: Db, orderId: string, card: CardScreening, payer: RiskIdentities = {}): Promise<Judgement | undefined> {
    const [row] = await queryRows<{ signals: CheckoutSignals | null; identities: StoredIdentity[] | null; card_blocked: boolean; assessed: boolean; left: number | null }>(
      db,
      sql`select c.signals, c.identities, (${this.blocklist.blocks({ card: card.fingerprint })})::boolean as card_blocked,
            exists (select 1 from ${riskAssessments} a where a.order_id = ${orderId}) as assessed,
            ${this.cardTesting.secondsLeft(payer)} as left
          from (select 1) one left join ${riskCheckouts} c on c.order_id = ${orderId}`,
    );
    refuseLockout(row!.left);
    if (!row!.signals || !row!.identities) return undefined;
    if (row!.assessed) {
      const stored = await this.assessmentOf(orderId, db);
      if (stored) return { assessment: stored, keep: () => Promise.resolve(stored), keptWithMove: undefined };
    }
    const signals: RiskSignals = {
      ...row!.signals,
      providerRisk: card.providerRisk,
      threeDSecure: card.threeDSecure,
      blocklisted: row!.signals.blocklisted || row!.card_blocked,
    };
    const assessment = assess(await this.rules.inForce(db), signals);
    const identities = [...row!.identities, ...this.blocklist.storedOf({ card: card.fingerprint })];
    // The checkout's signals and identities are in the database already: only what the card added is sent.
    const cardSignals = { providerRisk: signals.providerRisk, threeDSecure: signals.threeDSecure, blocklisted: signals.blocklisted };
    const keptWithMove = sql`insert into ${riskAssessments} (order_id, rules_version, score, decision, cancel_recommended, facts, signals, identities)
      select c.order_id, ${assessment.rulesVersion}::int, ${assessment.score}::int, ${assessment.decision}::text, ${assessment.cancelRecommended}::boolean,
             ${JSON.stringify(assessment.facts)}::jsonb, c.signals || ${JSON.stringify(cardSignals)}::jsonb,
             c.identities || ${JSON.stringify(this.blocklist.storedOf({ card: card.fingerprint }))}::jsonb
      from ${riskCheckouts} c where c.order_id = ${orderId} and exists (select 1 from moved)
      on conflict (order_id) do nothing`;
    return { assessment, keep: (into) => this.store(into, orderId, assessment, signals, identities), keptWithMove };
  }

  /** A payment judged and its assessment stored, in `tx` (judge, then keep). */
  async screen(tx: Db, orderId: string, card: CardScreening): Promise<AssessmentRow | undefined> {
    return (await this.judge(tx, orderId, card))?.keep(tx);
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
