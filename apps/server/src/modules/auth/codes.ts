// Single-use secrets sent by e-mail: 6-digit codes and password reset tokens. Only a hash is kept.
// A secret dies when used, when it expires, after CODE_MAX_ATTEMPTS wrong tries, or when a newer
// one of the same purpose is issued.
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { CODE_MAX_ATTEMPTS } from '@keystore/contract';
import type { Db } from '../../db/client.ts';
import { accountCodes } from './schema.ts';
import { hashesEqual } from '../../platform/tokens.ts';

export type CodePurpose = (typeof accountCodes.$inferSelect)['purpose'];

export type Consumed = { ok: true; ip: string | null } | { ok: false; reason: 'invalid' | 'expired' | 'exhausted' };

export class AccountCodes {
  private readonly db: Db;
  private readonly hashes: (purpose: CodePurpose, secret: string) => string[];

  /**
   * `hashes` turns a secret into what is stored (the first) and what else is accepted (keyed for
   * codes, under the current and previous server secrets; plain SHA-256 for tokens).
   */
  constructor(db: Db, hashes: (purpose: CodePurpose, secret: string) => string[]) {
    this.db = db;
    this.hashes = hashes;
  }

  private matches(stored: string, purpose: CodePurpose, secret: string): boolean {
    return this.hashes(purpose, secret).some((hash) => hashesEqual(stored, hash));
  }

  /** Stores a new secret for the user and purpose, voiding every older one of that purpose. */
  async issue(userId: string, purpose: CodePurpose, secret: string, options: { ttlMinutes: number; ip?: string }): Promise<void> {
    await this.db.transaction((tx) => this.issueIf(tx, true, userId, purpose, secret, options));
  }

  /**
   * `issue` inside the caller's transaction, stored only when `wanted`: the same statements run
   * either way, so a caller that must not show whether an account exists (forgot-password) does
   * the same work for none. `userId` may name no account when the secret is not wanted.
   */
  async issueIf(tx: Db, wanted: boolean, userId: string, purpose: CodePurpose, secret: string, options: { ttlMinutes: number; ip?: string }): Promise<void> {
    const now = new Date();
    const expiresAt = new Date(now.getTime() + options.ttlMinutes * 60_000);
    await tx.delete(accountCodes).where(and(eq(accountCodes.userId, userId), eq(accountCodes.purpose, purpose)));
    // INSERT … SELECT … WHERE: a row only when wanted, from one statement whatever the answer.
    await tx.execute(sql`
      insert into ${accountCodes} (user_id, purpose, secret_hash, ip, created_at, expires_at)
      select ${userId}, ${purpose}, ${this.hashes(purpose, secret)[0]!}, ${options.ip ?? null}::text, ${now.toISOString()}::timestamptz, ${expiresAt.toISOString()}::timestamptz
      where ${wanted}`);
  }

  /**
   * Uses the user's current secret of this purpose if `secret` is it. Each call spends one try
   * before comparing, in one statement, so parallel guesses cannot get more than the allowed tries.
   */
  async consume(userId: string, purpose: CodePurpose, secret: string): Promise<Consumed> {
    const now = new Date();
    const [tried] = await this.db
      .update(accountCodes)
      .set({ attempts: sql`${accountCodes.attempts} + 1` })
      .where(
        and(
          eq(accountCodes.userId, userId),
          eq(accountCodes.purpose, purpose),
          isNull(accountCodes.usedAt),
          gt(accountCodes.expiresAt, now),
          lt(accountCodes.attempts, CODE_MAX_ATTEMPTS),
        ),
      )
      .returning({ id: accountCodes.id, secretHash: accountCodes.secretHash, ip: accountCodes.ip, attempts: accountCodes.attempts });
    if (!tried) return { ok: false, reason: await this.whyUnusable(userId, purpose, now) };
    if (!this.matches(tried.secretHash, purpose, secret)) {
      return { ok: false, reason: tried.attempts >= CODE_MAX_ATTEMPTS ? 'exhausted' : 'invalid' };
    }
    const [used] = await this.db
      .update(accountCodes)
      .set({ usedAt: now })
      .where(and(eq(accountCodes.id, tried.id), isNull(accountCodes.usedAt)))
      .returning({ id: accountCodes.id });
    return used ? { ok: true, ip: tried.ip } : { ok: false, reason: 'invalid' };
  }

  /** The user's latest secret of this purpose (used or not), for resend locks and repeated links. */
  async latest(userId: string, purpose: CodePurpose): Promise<typeof accountCodes.$inferSelect | undefined> {
    const [row] = await this.db
      .select()
      .from(accountCodes)
      .where(and(eq(accountCodes.userId, userId), eq(accountCodes.purpose, purpose)))
      .orderBy(desc(accountCodes.id))
      .limit(1);
    return row;
  }

  /** Whether `secret` is the latest secret of this purpose and was already used (a link opened twice). */
  async wasUsed(userId: string, purpose: CodePurpose, secret: string): Promise<boolean> {
    const row = await this.latest(userId, purpose);
    return Boolean(row?.usedAt) && this.matches(row!.secretHash, purpose, secret);
  }

  private async whyUnusable(userId: string, purpose: CodePurpose, now: Date): Promise<'invalid' | 'expired' | 'exhausted'> {
    const row = await this.latest(userId, purpose);
    if (!row || row.usedAt) return 'invalid';
    if (row.expiresAt <= now) return 'expired';
    return 'exhausted';
  }
}
