// The blocklist: e-mails, cards, addresses and browsers whose orders are blocked, kept as keyed hashes
// with a masked hint (identities.ts). An owner adds and removes entries; a dispute adds its buyer's.
import { riskMessages as m, type BlocklistEntry, type BlocklistKind } from '@keystore/contract';
import { desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.ts';
import { recordAudit, type AuditActor } from '../../platform/audit.ts';
import { Conflict, NotFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { hintOf, identitiesOf, type IdentityHasher, type RiskIdentities } from './identities.ts';
import { riskBlocklist } from './schema.ts';

type BlocklistRow = typeof riskBlocklist.$inferSelect;

/** An identity as the risk desk keeps it: its kind, its keyed hash and a masked hint. */
export interface StoredIdentity {
  kind: BlocklistKind;
  hash: string;
  hint: string;
}

const toEntry = (row: BlocklistRow): BlocklistEntry => ({
  _id: row.id,
  kind: row.kind,
  hint: row.hint,
  note: row.note,
  createdAt: row.createdAt.toISOString(),
  createdBy: row.createdBy,
});

export class Blocklist {
  private readonly database: Database;
  private readonly hasher: IdentityHasher;

  constructor(database: Database, hasher: IdentityHasher) {
    this.database = database;
    this.hasher = hasher;
  }

  /** Every entry, newest first. */
  async list(): Promise<BlocklistEntry[]> {
    const rows = await this.database.db.select().from(riskBlocklist).orderBy(desc(riskBlocklist.createdAt), riskBlocklist.id);
    return rows.map(toEntry);
  }

  /** An owner blocks one value, audited in the same transaction; Conflict when it is blocked already. */
  add(kind: BlocklistKind, value: string, note: string, actor: AuditActor): Promise<BlocklistEntry> {
    return this.database.db.transaction(async (tx) => {
      const [row] = await this.insert(tx, { [kind]: value }, note, actor.id);
      if (!row) throw new Conflict(m.alreadyBlocked);
      await recordAudit(tx, { actor, action: 'risk.block', target: { type: 'risk', id: `blocklist/${row.id}` }, after: { kind: row.kind, hint: row.hint, note: row.note } });
      return toEntry(row);
    });
  }

  /** An owner removes an entry, audited in the same transaction; NotFound for an unknown one. */
  remove(id: string, actor: AuditActor): Promise<void> {
    return this.database.db.transaction(async (tx) => {
      const [row] = await tx.delete(riskBlocklist).where(eq(riskBlocklist.id, id)).returning();
      if (!row) throw new NotFound(m.blocklistEntryNotFound);
      await recordAudit(tx, { actor, action: 'risk.unblock', target: { type: 'risk', id: `blocklist/${row.id}` }, before: { kind: row.kind, hint: row.hint, note: row.note } });
    });
  }

  /**
   * Blocks each of these identities not blocked already, through `db` (a dispute's transaction);
   * answers how many were new. Calling it again changes nothing. `byUserId` is null when the store blocks.
   */
  async block(db: Db, identities: RiskIdentities, note: string, byUserId: string | null): Promise<number> {
    return (await this.insert(db, identities, note, byUserId)).length;
  }

  /** These identities as the blocklist would store them: kind, keyed hash and masked hint, never the value. */
  storedOf(identities: RiskIdentities): StoredIdentity[] {
    return identitiesOf(identities).map((identity) => ({ kind: identity.kind, hash: this.hasher.stored(identity), hint: hintOf(identity) }));
  }

  /** Blocks identities kept as storedOf gave them (a dispute's buyer, issue 29); answers how many were new. Calling it again changes nothing. */
  async blockStored(db: Db, identities: StoredIdentity[], note: string): Promise<number> {
    if (identities.length === 0) return 0;
    const rows = identities.map((identity) => ({ id: newId(), kind: identity.kind, valueHash: identity.hash, hint: identity.hint, note, createdBy: null }));
    return (await db.insert(riskBlocklist).values(rows).onConflictDoNothing({ target: riskBlocklist.valueHash }).returning({ id: riskBlocklist.id })).length;
  }

  /** Whether any of these identities is blocked. */
  async isBlocked(identities: RiskIdentities, db: Db = this.database.db): Promise<boolean> {
    const [row] = await db.select({ blocked: this.blocks(identities) }).from(sql`(select 1) one`);
    return row!.blocked;
  }

  /** Whether any of these identities is blocked, as a boolean SQL expression (to ask it within another statement). */
  blocks(identities: RiskIdentities): SQL<boolean> {
    const hashes = identitiesOf(identities).flatMap((identity) => this.hasher.matching(identity));
    if (hashes.length === 0) return sql<boolean>`false`;
    return sql<boolean>`exists (select 1 from ${riskBlocklist} where ${inArray(riskBlocklist.valueHash, hashes)})`.mapWith(Boolean);
  }

  private insert(db: Db, identities: RiskIdentities, note: string, createdBy: string | null): Promise<BlocklistRow[]> {
    const rows = identitiesOf(identities).map((identity) => ({ id: newId(), kind: identity.kind, valueHash: this.hasher.stored(identity), hint: hintOf(identity), note, createdBy }));
    if (rows.length === 0) return Promise.resolve([]);
    return db.insert(riskBlocklist).values(rows).onConflictDoNothing({ target: riskBlocklist.valueHash }).returning();
  }
}
