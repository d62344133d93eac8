// The security module's rows: authenticator apps, recovery codes, passkeys, challenges and events.
import { and, asc, count, eq, gt, inArray, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import type { SecurityEvent } from '@keystore/contract';
import type { Db } from '../../db/client.ts';
import { sellerFacts } from '../sellers/ports.ts';
import { passkeys, recoveryCodes, securityEvents, signInChallenges, totpFactors } from './schema.ts';

export type ChallengePurpose = (typeof signInChallenges.$inferSelect)['purpose'];
export type PasskeyRow = typeof passkeys.$inferSelect;

/** Whether the account has an authenticator app on, and how many passkeys: one read for the sign-in's next step. */
export async function factorsOf(db: Db, userId: string): Promise<{ totp: boolean; passkeys: number }> {
  const [row] = await db
    .select({
      totp: sql<boolean>`exists (select 1 from ${totpFactors} where ${totpFactors.userId} = ${userId} and ${totpFactors.enabledAt} is not null)`,
      passkeys: sql<number>`(select count(*)::int from ${passkeys} where ${passkeys.userId} = ${userId})`,
    })
    .from(sql`(select 1) as one`);
  return row ?? { totp: false, passkeys: 0 };
}

/** Whether the user has a seller account (any status): the owner may require a second factor of sellers. */
export async function isSeller(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ id: sellerFacts.id }).from(sellerFacts).where(eq(sellerFacts.userId, userId)).limit(1);
  return row !== undefined;
}

export async function totpOf(db: Db, userId: string) {
  const [row] = await db.select().from(totpFactors).where(eq(totpFactors.userId, userId));
  return row;
}

/** Starts (or starts again) a set-up waiting for its first code; refused (false) while one is on. */
export async function savePendingTotp(db: Db, userId: string, secretSealed: string): Promise<boolean> {
  const rows = await db
    .insert(totpFactors)
    .values({ userId, secretSealed })
    .onConflictDoUpdate({ target: totpFactors.userId, set: { secretSealed, lastStep: 0, createdAt: new Date() }, setWhere: isNull(totpFactors.enabledAt) })
    .returning({ userId: totpFactors.userId });
  return rows.length > 0;
}

/**
 * Takes time step `step` for the account's app: true once per step and later only, on any instance
 * (a code replayed, even within its window, finds the step taken). `enabling`: the set-up's first code.
 */
export async function takeTotpStep(db: Db, userId: string, step: number, enabling = false): Promise<boolean> {
  const rows = await db
    .update(totpFactors)
    .set(enabling ? { lastStep: step, enabledAt: new Date() } : { lastStep: step })
    .where(and(eq(totpFactors.userId, userId), lt(totpFactors.lastStep, step), enabling ? isNull(totpFactors.enabledAt) : isNotNull(totpFactors.enabledAt)))
    .returning({ userId: totpFactors.userId });
  return rows.length > 0;
}

export async function deleteTotp(db: Db, userId: string): Promise<void> {
  await db.delete(totpFactors).where(eq(totpFactors.userId, userId));
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

/** Replaces the account's recovery codes with these hashes. */
export async function replaceRecoveryCodes(db: Db, userId: string, hashes: string[]): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
}

/** Uses one unused recovery code whose hash is one of `hashes` (the current key's and the previous keys'); true when one was. */
export async function useRecoveryCode(db: Db, userId: string, hashes: string[]): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        isNull(recoveryCodes.usedAt),
        eq(recoveryCodes.id, sql`(select id from ${recoveryCodes} where ${recoveryCodes.userId} = ${userId} and ${recoveryCodes.usedAt} is null and ${inArray(recoveryCodes.codeHash, hashes)} limit 1)`),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return rows.length > 0;
}

export async function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(recoveryCodes).where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}

// --- challenges ---

export async function insertChallenge(db: Db, row: typeof signInChallenges.$inferInsert): Promise<void> {
  await db.insert(signInChallenges).values(row);
}

/** The challenge of this id and purpose while it waits: not used, not expired. */
function waiting(idHash: string, purpose: ChallengePurpose) {
  return and(eq(signInChallenges.idHash, idHash), eq(signInChallenges.purpose, purpose), isNull(signInChallenges.usedAt), gt(signInChallenges.expiresAt, sql`now()`));
}

/** A challenge still waiting: not used, not expired. */
export async function waitingChallenge(db: Db, idHash: string, purpose: ChallengePurpose) {
  const [row] = await db.select().from(signInChallenges).where(waiting(idHash, purpose));
  return row;
}

/**
 * Takes one of a waiting challenge's tries before its code is checked, in one statement (tries sent
 * at once cannot share one): the challenge with the tries made, or undefined once none is left.
 */
export async function takeTry(db: Db, idHash: string, purpose: ChallengePurpose, maxAttempts: number) {
  const [row] = await db
    .update(signInChallenges)
    .set({ attempts: sql`${signInChallenges.attempts} + 1` })
    .where(and(waiting(idHash, purpose), lt(signInChallenges.attempts, maxAttempts)))
    .returning();
  return row;
}

/** Uses a waiting challenge once (the first caller of any instance wins) while it has made at most `maxAttempts` tries: its row, or undefined. */
export async function takeChallenge(db: Db, idHash: string, purpose: ChallengePurpose, maxAttempts: number) {
  const [row] = await db
    .update(signInChallenges)
    .set({ usedAt: new Date() })
    .where(and(waiting(idHash, purpose), lte(signInChallenges.attempts, maxAttempts)))
    .returning();
  return row;
}

/** Forgets challenges a day past their expiry. */
export async function deleteOldChallenges(db: Db): Promise<void> {
  await db.delete(signInChallenges).where(lt(signInChallenges.expiresAt, sql`now() - interval '1 day'`));
}

// --- passkeys ---

export async function passkeysOf(db: Db, userId: string): Promise<PasskeyRow[]> {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt));
}

export async function passkeyByCredential(db: Db, credentialId: string): Promise<PasskeyRow | undefined> {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId));
  return row;
}

export async function insertPasskey(db: Db, row: typeof passkeys.$inferInsert): Promise<void> {
  await db.insert(passkeys).values(row);
}

/** Records a sign-in with the passkey: its new counter, moved only forward. */
export async function passkeyUsed(db: Db, id: string, counter: number): Promise<void> {
  await db
    .update(passkeys)
    .set({ counter: sql`greatest(${passkeys.counter}, ${counter})`, lastUsedAt: new Date() })
    .where(eq(passkeys.id, id));
}

export async function deletePasskey(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db.delete(passkeys).where(and(eq(passkeys.userId, userId), eq(passkeys.id, id))).returning({ id: passkeys.id });
  return rows.length > 0;
}

// --- events ---

export async function insertSecurityEvent(db: Db, row: { userId: string; kind: SecurityEvent; ip: string | null; userAgent: string | null }): Promise<void> {
  await db.insert(securityEvents).values(row);
}

/** The TOTP secrets not sealed under the current key, for `keys:reencrypt`. */
export const sealedTotpSecrets = {
  name: 'authenticator-app secrets',
  notUnder: async (db: Db, currentPrefix: string, afterId: string, limit: number) =>
    (
      await db
        .select({ userId: totpFactors.userId, secretSealed: totpFactors.secretSealed })
        .from(totpFactors)
        .where(and(gt(sql`'totp:' || ${totpFactors.userId}`, afterId), sql`${totpFactors.secretSealed} not like ${`${currentPrefix}%`}`))
        .orderBy(asc(totpFactors.userId))
        .limit(limit)
    ).map((row) => ({ id: totpSealContext(row.userId), serialEncrypted: row.secretSealed })),
  replace: async (db: Db, id: string, previous: string, next: string) =>
    (
      await db
        .update(totpFactors)
        .set({ secretSealed: next })
        .where(and(eq(totpFactors.userId, id.slice('totp:'.length)), eq(totpFactors.secretSealed, previous)))
        .returning({ userId: totpFactors.userId })
    ).length > 0,
};

/** The context a TOTP secret is sealed with: its own, so it cannot pass for a key or another account's secret. */
export function totpSealContext(userId: string): string {
  return `totp:${userId}`;
}
