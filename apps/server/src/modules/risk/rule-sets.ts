// The risk desk's rule sets, versioned: a change is a new version, never an edit, so every assessment
// names the rules it was made under. The defaults are version 1 until an owner writes version 2.
import { DEFAULT_RISK_RULES, type RiskRule, type RiskRuleSet } from '@keystore/contract';
import { desc, sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.ts';
import { recordAudit, type AuditActor } from '../../platform/audit.ts';
import { riskRuleSets } from './schema.ts';

export const DEFAULT_RULE_SET: RiskRuleSet = { version: 1, rules: DEFAULT_RISK_RULES.map((rule) => ({ ...rule })), createdAt: null, createdBy: null };

/** Told when a rule set is put in force, so every instance reads the new one. */
export const RISK_RULES_CHANNEL = 'risk_rules_changed';

export class RiskRuleSets {
  private readonly database: Database;
  /** The rule set in force, as read last; dropped when any instance puts a new one in force. */
  private cached: Promise<RiskRuleSet> | undefined;
  private stopListening: (() => Promise<void>) | undefined;

  constructor(database: Database) {
    this.database = database;
  }

  /**
   * Listens for new rule sets put in force on any instance, so every payment's assessment can use the
   * rule set in memory rather than read it again (inForce). A lost connection may have missed a
   * change: the memory is dropped when it is back.
   */
  async start(): Promise<void> {
    const forget = () => {
      this.cached = undefined;
    };
    this.stopListening = await this.database.listen(RISK_RULES_CHANNEL, forget, { onReconnect: forget });
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
    this.stopListening = undefined;
    this.cached = undefined;
  }

  /** The rule set in force: from memory while listening (started), otherwise read through `db` (a transaction's, when in one). */
  inForce(db: Db = this.database.db): Promise<RiskRuleSet> {
    if (!this.stopListening) return this.current(db);
    const reading = (this.cached ??= this.current(db));
    reading.catch(() => {
      if (this.cached === reading) this.cached = undefined;
    });
    return reading;
  }

  /** The rule set in force: the highest version stored, or the defaults. */
  async current(db: Db = this.database.db): Promise<RiskRuleSet> {
    const [row] = await db.select().from(riskRuleSets).orderBy(desc(riskRuleSets.version)).limit(1);
    if (!row) return DEFAULT_RULE_SET;
    return { version: row.version, rules: row.rules, createdAt: row.createdAt.toISOString(), createdBy: row.createdBy };
  }

  /**
   * Puts `rules` in force as the next version, with its audit record in the same transaction. Two
   * admins saving at once both aim at one version number: the second gets a conflict, not a lost change.
   */
  replace(rules: RiskRule[], actor: AuditActor): Promise<RiskRuleSet> {
    return this.database.db.transaction(async (tx) => {
      const before = await this.current(tx);
      const [row] = await tx
        .insert(riskRuleSets)
        .values({ version: sql`(select coalesce(max(${riskRuleSets.version}), 1) + 1 from ${riskRuleSets})`, rules, createdBy: actor.id })
        .returning();
      await recordAudit(tx, {
        actor,
        action: 'risk.rules',
        target: { type: 'risk', id: 'rules' },
        before: { version: before.version, rules: before.rules },
        after: { version: row!.version, rules },
      });
      // Every instance (this one too) forgets the rule set it read once this commits.
      await tx.execute(sql`select pg_notify(${RISK_RULES_CHANNEL}, ${String(row!.version)})`);
      this.cached = undefined;
      return { version: row!.version, rules: row!.rules, createdAt: row!.createdAt.toISOString(), createdBy: row!.createdBy };
    });
  }
}
