// The owner's settings (store_settings): one JSON value per key, read and written only here, so each
// module that keeps a setting (the catalogue's markup, the sellers' default commission and score
// floor) asks this one door. A read may join the caller's transaction.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { storeSettings } from './schema.ts';

/** A setting's value, or undefined when the owner never set it. */
export async function readSetting(db: Db, key: string): Promise<unknown> {
  const [row] = await db.select({ value: storeSettings.value }).from(storeSettings).where(eq(storeSettings.key, key));
  return row?.value;
}

/** Sets a setting (in the caller's transaction, when it has one). */
export async function writeSetting(db: Db, key: string, value: unknown): Promise<void> {
  await db
    .insert(storeSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: storeSettings.key, set: { value, updatedAt: new Date() } });
}
