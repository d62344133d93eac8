// Disposable e-mail domains: the bundled list (disposable-domains.ts) and the owner's additions.
import type { DisposableDomains as DisposableDomainsAnswer } from '@keystore/contract';
import { inArray, notInArray } from 'drizzle-orm';
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
    const candidates = domainAndParents(domain.trim());
    if (candidates.length === 0) return false;
    if (candidates.some((candidate) => BUNDLED_DISPOSABLE_DOMAINS.has(candidate))) return true;
    const [added] = await db.select({ domain: riskDisposableDomains.domain }).from(riskDisposableDomains).where(inArray(riskDisposableDomains.domain, candidates)).limit(1);
    return added !== undefined;
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
