// Addresses from which an account has proved itself (a verified e-mail or new-device code). A login
// with the right password from any other address asks for a code first.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { trustedIps } from './schema.ts';

export async function isTrustedIp(db: Db, userId: string, ip: string): Promise<boolean> {
  const rows = await db
    .select({ ip: trustedIps.ip })
    .from(trustedIps)
    .where(and(eq(trustedIps.userId, userId), eq(trustedIps.ip, ip)))
    .limit(1);
  return rows.length > 0;
}

export async function trustIp(db: Db, userId: string, ip: string): Promise<void> {
  await db
    .insert(trustedIps)
    .values({ userId, ip, verifiedAt: new Date() })
    .onConflictDoUpdate({ target: [trustedIps.userId, trustedIps.ip], set: { verifiedAt: new Date() } });
}
