// Disposable e-mail domains: the bundled list (disposable-domains.ts) and the owner's additions.
import type { DisposableDomains as DisposableDomainsAnswer } from '@keystore/contract';
import { inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.ts';
import { recordAudit, type AuditActor } from '../../platform/audit.ts';
import { BUNDLED_DISPOSABLE_DOMAINS, domainAndParents } from './disposable-domains.ts';
import { riskDisposableDomains } from './schema.ts';

export class DisposableDomains {
  private readonly database: Database;

  constructor(database: Database) {
    this.database = database;
  }

  /** Whether mail at `domain` (or a domain it is under) goes to a throwaway inbox. */
  async isDisposable(domain: string, db: Db = this.database.db): Promise<boolean> {
    const check = this.disposes(domain);
    if (typeof check === 'boolean') return check;
    const [row] = await db.select({ disposable: check }).from(sql`(select 1) one`);
    return row!.disposable;
  }

  /**
   * Whether mail at `domain` goes to a throwaway inbox: known at once from the bundled list, or a
   * boolean SQL expression asking the owner's additions (to ask it within another statement).
   */
  disposes(domain: string): boolean | SQL<boolean> {
    const candidates = domainAndParents(domain.trim());
    if (candidates.length === 0) return false;
    if (candidates.some((candidate) => BUNDLED_DISPOSABLE_DOMAINS.has(candidate))) return true;
    return sql<boolean>`exists (select 1 from ${riskDisposableDomains} where ${inArray(riskDisposableDomains.domain, candidates)})`.mapWith(Boolean);
  }

  /** The bundled list's size and the owner's additions. */
  async list(db: Db = this.database.db): Promise<DisposableDomainsAnswer> {
    const rows = await db.select({ domain: riskDisposableDomains.domain }).from(riskDisposableDomains).orderBy(riskDisposableDomains.domain);
    return { bundled: BUNDLED_DISPOSABLE_DOMAINS.size, domains: rows.map((row) => row.domain) };
  }

  /** Makes `domains` the owner's additions (all of them), audited in the same transaction. */
  replace(domains: string[], actor: AuditActor): Promise<DisposableDomainsAnswer> {
    return this.database.db.transaction(async (tx) => {
      const before = await this.list(tx);
      const wanted = [...new Set(domains)];
      // Domains kept keep who added them and when.
      await tx.delete(riskDisposableDomains).where(wanted.length > 0 ? notInArray(riskDisposableDomains.domain, wanted) : undefined);
      if (wanted.length > 0) await tx.insert(riskDisposableDomains).values(wanted.map((domain) => ({ domain, addedBy: actor.id }))).onConflictDoNothing();
      const after = await this.list(tx);
      await recordAudit(tx, { actor, action: 'risk.disposable-domains', target: { type: 'risk', id: 'disposable-domains' }, before: before.domains, after: after.domains });
      return after;
    });
  }
}
