// Re-encryption after a new KEY_ENCRYPTION_KEY (docs/decisions/012): `npm run keys:reencrypt`.
import type { Db } from '../../db/client.ts';
import type { KeyVault } from './key-vault.ts';
import { keysNotUnder, replaceEncryptedSerial } from './store.ts';

/**
 * Rows of another module that hold serials sealed by the vault (a seller's uploaded keys): what they
 * are called, the next rows not under the current key, and a rewrite of one if it is still `previous`.
 */
export interface SealedSerials {
  name: string;
  notUnder(db: Db, currentPrefix: string, afterId: string, limit: number): Promise<Array<{ id: string; serialEncrypted: string }>>;
  replace(db: Db, id: string, previous: string, next: string): Promise<boolean>;
}

const libraryKeys: SealedSerials = { name: 'library keys', notUnder: keysNotUnder, replace: replaceEncryptedSerial };

export interface Reencrypted {
  /** Keys rewritten under the current key by this run. */
  keys: number;
  /** Whether the serial-hash key was re-wrapped under the current key. */
  hashKeyRewrapped: boolean;
}

/**
 * Rewrites every stored key (voided ones too) that is not yet under the current encryption key, in
 * batches of `batchSize`, one transaction each, then re-wraps the serial-hash key; once done, the
 * previous keys can be dropped from the configuration. The serial hashes do not change.
 * Idempotent: keys under the current key are skipped. Safe while the store runs: the store only
 * adds keys (under the current key) and voids them (other columns), and a row is rewritten only if
 * its text is still the one read.
 */
export async function reencryptKeys(
  db: Db,
  vault: KeyVault,
  options: { batchSize?: number; onBatch?: (keys: number) => void; also?: SealedSerials[] } = {},
): Promise<Reencrypted> {
  const currentPrefix = `v2.${vault.ring.currentId}.`;
  let keys = 0;
  for (const source of [libraryKeys, ...(options.also ?? [])]) keys += await reencryptSource(db, vault, source, currentPrefix, keys, options);
  return { keys, hashKeyRewrapped: await vault.rewrapHashKey(db) };
}

async function reencryptSource(
  db: Db,
  vault: KeyVault,
  source: SealedSerials,
  currentPrefix: string,
  before: number,
  options: { batchSize?: number; onBatch?: (keys: number) => void },
): Promise<number> {
  let keys = 0;
  let afterId = '';
  for (;;) {
    const batch = await source.notUnder(db, currentPrefix, afterId, options.batchSize ?? 500);
    if (batch.length === 0) break;
    keys += await db.transaction(async (tx) => {
      let rewritten = 0;
      for (const row of batch) {
        let serial: string;
        try {
          serial = vault.decrypt(row.serialEncrypted, row.id);
        } catch (error) {
          throw new Error(`Key ${row.id} (${source.name}) does not decrypt under the configured keys: ${(error as Error).message}`, { cause: error });
        }
        if (await source.replace(tx, row.id, row.serialEncrypted, vault.encrypt(serial, row.id))) rewritten += 1;
      }
      return rewritten;
    });
    afterId = batch.at(-1)!.id;
    options.onBatch?.(before + keys);
  }
  return keys;
}
