// Synthetic sellers for benchmarks: `count` active sellers, whose offers offers/synthetic.ts writes.
// Deterministic and idempotent: a second run adds nothing. Answers their ids.
import type { Db } from '../../db/client.ts';
import { sellers } from './schema.ts';

export async function seedSyntheticSellers(db: Db, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, s) => `synseller${String(s).padStart(7, '0')}`);
  if (count > 0) {
    await db
      .insert(sellers)
      .values(ids.map((id, s) => ({ id, name: `Synthetic Seller ${s + 1}`, contactEmail: `seller${s + 1}@example.com`, country: 'DE', status: 'active' as const })))
      .onConflictDoNothing();
  }
  return ids;
}
