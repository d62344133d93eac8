// Synthetic offers for benchmarks: each of some sellers (sellers/synthetic.ts makes them) offers the
// same `titles` games of the synthetic catalogue (the first by product id) with `keysPerOffer` uploaded
// keys, sealed and hashed as real uploads are. Deterministic and idempotent: a second run adds nothing.
import { sql } from 'drizzle-orm';
import { buyerPriceCents, DEFAULT_COMMISSION_FIXED_CENTS, DEFAULT_COMMISSION_PERCENT, normalizedSerial } from '@keystore/contract';
import { queryRows, type Db } from '../../db/client.ts';
/** The supplier the synthetic catalogue is stored under (catalog/synthetic.ts). */
const SYNTHETIC_SUPPLIER = 'synthetic';
import type { GameStockRows } from '../catalog/ports.ts';
import { Market } from './market.ts';
import { maskKey } from './seal.ts';
import { offers, sellerKeys } from './schema.ts';

/** What seals a serial and hashes it: the library's key vault. */
export interface Sealer {
  encrypt(serial: string, rowId: string): string;
  serialHash(serial: string): string;
}

/** Answers how many keys were added. */
export async function seedSyntheticOffers(db: Db, gameStock: GameStockRows, vault: Sealer, sellerIds: string[], options: { titles: number; keysPerOffer: number }): Promise<number> {
  const market = new Market(gameStock);
  const games = await queryRows<{ id: string; price_cents: number }>(
    db,
    sql`select id, price_cents from game_facts where supplier = ${SYNTHETIC_SUPPLIER} order by supplier_product_id limit ${options.titles}`,
  );
  const commission = { percent: DEFAULT_COMMISSION_PERCENT, fixedCents: DEFAULT_COMMISSION_FIXED_CENTS };
  let added = 0;
  for (const [s, sellerId] of sellerIds.entries()) {
    for (let start = 0; start < games.length; start += 500) {
      const part = games.slice(start, start + 500);
      const offerRows = part.map((game, n) => {
        // From 75 % to 100 % of what the house asks, before the commission: often the best offer, not always.
        const net = Math.max(10, Math.floor((game.price_cents * (0.75 + (((start + n) * 7 + s * 13) % 26) / 100)) / 1.1));
        return { id: `synoffer${String(s)}${String(start + n).padStart(8, '0')}`, sellerId, gameId: game.id, netPriceCents: net, priceCents: buyerPriceCents(net, commission) };
      });
      await db.insert(offers).values(offerRows).onConflictDoNothing();
      const keyRows = offerRows.flatMap((offer) =>
        Array.from({ length: options.keysPerOffer }, (_, k) => {
          const id = `${offer.id}k${k}`;
          const serial = `SYN-${s}${offer.id.slice(-8)}-${String(k).padStart(4, '0')}-${offer.gameId.slice(0, 5).toUpperCase()}`;
          return {
            id,
            offerId: offer.id,
            sellerId,
            gameId: offer.gameId,
            serialEncrypted: vault.encrypt(serial, id),
            serialHash: vault.serialHash(normalizedSerial(serial)),
            libraryHash: vault.serialHash(serial),
            masked: maskKey(serial),
          };
        }),
      );
      const written = await db.insert(sellerKeys).values(keyRows).onConflictDoNothing().returning({ id: sellerKeys.id });
      added += written.length;
      await db.transaction((tx) => market.refresh(tx, part.map((game) => game.id)));
    }
  }
  return added;
}
