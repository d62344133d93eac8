// Keys coming in (decision 031): uploaded by a seller or handed over by a declared seller, each is
// checked, sealed as a library key is (bound to its row id), and hashed by the duplicate rule.
import { keyIsValid, MASKED_KEY_VISIBLE, normalizedSerial } from '@keystore/contract';
import { newId } from '../../platform/ids.ts';
import type { LibraryService } from '../library/ports.ts';
import type { SellerKeyRow } from './store.ts';

export type SellerKeyInsert = Pick<SellerKeyRow, 'id' | 'offerId' | 'sellerId' | 'gameId' | 'serialEncrypted' | 'serialHash' | 'libraryHash' | 'masked'>;

/**
 * An offer's keys as seller_keys rows, sealed, by the marketplace's duplicate rule: each trimmed, an
 * invalid one counted and left out, and one the store knows (twice in the list, or ever sold for the
 * game) counted as a duplicate. A key in another seller's stock is left to the unique index at insert.
 * Uploads and the keys a declared-stock seller hands over (issue 24) both come through here.
 */
export async function sealKeys(library: LibraryService, offer: { id: string; sellerId: string; gameId: string }, keys: string[]): Promise<{ rows: SellerKeyInsert[]; duplicates: number; invalid: number }> {
  let invalid = 0;
  const unique = new Map<string, string>();
  let duplicates = 0;
  for (const raw of keys) {
    const serial = raw.trim();
    if (!keyIsValid(serial)) {
      invalid += 1;
      continue;
    }
    const hash = library.serialHash(normalizedSerial(serial));
    if (unique.has(hash)) duplicates += 1;
    else unique.set(hash, serial);
  }
  const candidates = [...unique].map(([serialHash, serial]) => ({ serialHash, serial, libraryHash: library.serialHash(serial) }));
  // A key sold before (by the house or a seller) is in the library under its serial as delivered, or as this seller wrote it.
  const sold = candidates.length > 0 ? await library.deliveredHashes(offer.gameId, [...new Set(candidates.flatMap((key) => [key.libraryHash, key.serialHash]))]) : new Set<string>();
  const fresh = candidates.filter((key) => !sold.has(key.libraryHash) && !sold.has(key.serialHash));
  duplicates += candidates.length - fresh.length;
  const rows = fresh.map((key) => {
    const id = newId(20);
    return {
      id,
      offerId: offer.id,
      sellerId: offer.sellerId,
      gameId: offer.gameId,
      serialEncrypted: library.seal(key.serial, id),
      serialHash: key.serialHash,
      libraryHash: key.libraryHash,
      masked: maskKey(key.serial),
    };
  });
  return { rows, duplicates, invalid };
}

/** What a seller or an admin sees of a key: its last characters. */
export function maskKey(serial: string): string {
  const visible = serial.slice(-MASKED_KEY_VISIBLE);
  return `${'•'.repeat(Math.max(4, serial.length - visible.length))}${visible}`;
}
