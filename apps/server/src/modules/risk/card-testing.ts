// Card testing (issue 29): a thief tries stolen cards one after another. The third declined payment in
// 10 minutes for one e-mail, address or browser locks that identity out for 24 hours: its new orders
// and payments answer 429. Counted in the database, so every instance on it counts the same declines.
import { CARD_TESTING, riskMessages as m } from '@keystore/contract';
import { and, eq, gt, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.ts';
import { TooManyRequests } from '../../platform/errors.ts';
import { identitiesOf, type Identity, type IdentityHasher, type RiskIdentities } from './identities.ts';
import { riskDeclines, riskDecliningIdentities } from './schema.ts';

const WINDOW = sql.raw(`interval '${CARD_TESTING.windowMinutes} minutes'`);
const LOCKOUT = sql.raw(`interval '${CARD_TESTING.lockoutHours} hours'`);

export class CardTesting {
  private readonly database: Database;
  private readonly hasher: IdentityHasher;

  constructor(database: Database, hasher: IdentityHasher) {
    this.database = database;
    this.hasher = hasher;
  }

  /** Records a declined payment for each of these identities; answers whether any is now locked out. */
  async noteDecline(identities: RiskIdentities): Promise<boolean> {
    let locked = false;
    // One transaction per identity: each holds one identity's lock only, so two payments naming the same two identities cannot deadlock.
    for (const identity of identitiesOf(identities)) locked = (await this.declined(identity)) || locked;
    return locked;
  }

  /** Whether any of these identities is locked out now. */
  async lockedOut(identities: RiskIdentities, db: Db = this.database.db): Promise<boolean> {
    return (await this.lockoutLeft(identities, db)) !== null;
  }

  /** Throws 429 with `Retry-After` while any of these identities is locked out (before an order or a payment). */
  async refuseIfLockedOut(identities: RiskIdentities): Promise<void> {
    refuseLockout(await this.lockoutLeft(identities));
  }

  /** Seconds until the latest lockout of these identities ends, or null when none is locked out. */
  private async lockoutLeft(identities: RiskIdentities, db: Db = this.database.db): Promise<number | null> {
    const [row] = await db.select({ left: this.secondsLeft(identities) }).from(sql`(select 1) one`);
    return row!.left;
  }

  /**
   * The seconds until the latest lockout of these identities ends (null when none is locked out), as an
   * SQL expression, to ask it within another statement.
   */
  secondsLeft(identities: RiskIdentities): SQL<number | null> {
    const hashes = identitiesOf(identities).map((identity) => this.hasher.stored(identity));
    if (hashes.length === 0) return sql<null>`null::float8`;
    return sql<number | null>`(select extract(epoch from max(${riskDecliningIdentities.lockedUntil}) - now())::float8 from ${riskDecliningIdentities}
      where ${and(inArray(riskDecliningIdentities.identityHash, hashes), gt(riskDecliningIdentities.lockedUntil, sql`now()`))})`;
  }

  /**
   * One identity's decline, counted exactly: the identity's row is locked first (created by the first
   * decline), so two instances noting declines of one identity at once count one after the other.
   */
  private declined(identity: Identity): Promise<boolean> {
    const hash = this.hasher.stored(identity);
    return this.database.db.transaction(async (tx) => {
      await tx
        .insert(riskDecliningIdentities)
        .values({ identityHash: hash })
        .onConflictDoUpdate({ target: riskDecliningIdentities.identityHash, set: { identityHash: hash } });
      await tx.delete(riskDeclines).where(and(eq(riskDeclines.identityHash, hash), lte(riskDeclines.at, sql`now() - ${WINDOW}`)));
      await tx.insert(riskDeclines).values({ identityHash: hash });
      const [recent] = await tx.select({ count: sql<number>`count(*)::int` }).from(riskDeclines).where(eq(riskDeclines.identityHash, hash));
      if (recent!.count < CARD_TESTING.declines) return false;
      await tx.update(riskDecliningIdentities).set({ lockedUntil: sql`now() + ${LOCKOUT}` }).where(eq(riskDecliningIdentities.identityHash, hash));
      return true;
    });
  }
}

/** Throws 429 with `Retry-After` for a lockout with `secondsLeft` (secondsLeft); nothing for null. */
export function refuseLockout(secondsLeft: number | null): void {
  if (secondsLeft !== null) throw new TooManyRequests(m.cardTestingLockout, secondsLeft);
}
