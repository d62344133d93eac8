// Keys at rest (docs/decisions/008 and 012). A serial is stored AES-256-GCM encrypted under the
// KEY_ENCRYPTION_KEY ring, bound to its row id as associated data (a ciphertext copied onto another
// row does not decrypt), and as an HMAC-SHA256 under the serial-hash key, so the database can refuse
// a serial sold before without ever holding it in the clear.
//
// The serial-hash key must never change: the unique (game, hash) index only refuses a serial sold
// before if the same serial always gives the same hash. So it is not derived from whichever
// encryption key is current (a rotation would change every hash), but kept in `vault_keys`, wrapped
// (encrypted) under the encryption keys like a serial, and re-wrapped when keys are re-encrypted.
// Its value is the one stores have always hashed with: HKDF of the encryption key of the time.
import { createHmac, createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { KeyRing, UndecryptableText } from '../../platform/key-ring.ts';
import { insertVaultKey, replaceVaultKey, sampleKey, vaultKey } from './store.ts';

const SERIAL_HASH = 'serial-hash';

export class KeyVault {
  readonly ring: KeyRing;
  private readonly hashKey: Buffer;
  /** The same key made once for HMAC: keyed with a buffer, an HMAC makes a key object on every call. */
  private readonly hashKeyObject: KeyObject;

  private constructor(ring: KeyRing, hashKey: Buffer) {
    this.ring = ring;
    this.hashKey = hashKey;
    this.hashKeyObject = createSecretKey(hashKey);
  }

  /**
   * The vault over the configured keys, with the serial-hash key from the database; the first start
   * stores it. Throws when the keys configured cannot unwrap it: starting anyway would hash new
   * serials differently and let a serial be sold twice.
   */
  static async open(db: Db, ring: KeyRing): Promise<KeyVault> {
    let stored = await vaultKey(db, SERIAL_HASH);
    if (!stored) {
      const first = await firstHashKey(db, ring);
      await insertVaultKey(db, SERIAL_HASH, first.wrapUnder.encrypt(first.hashKey, SERIAL_HASH));
      // Another instance starting at the same moment may have stored its own first: theirs counts.
      stored = (await vaultKey(db, SERIAL_HASH))!;
    }
    try {
      return new KeyVault(ring, ring.decrypt(stored, SERIAL_HASH));
    } catch (error) {
      if (!(error instanceof UndecryptableText)) throw error;
      throw new Error(
        `The serial-hash key is wrapped under a key that is neither KEY_ENCRYPTION_KEY nor in KEY_ENCRYPTION_KEY_PREVIOUS (${error.message}): ` +
          'add the key it was stored under to KEY_ENCRYPTION_KEY_PREVIOUS.',
        { cause: error },
      );
    }
  }

  /** The serial, encrypted under the current key and bound to its row. */
  encrypt(serial: string, keyId: string): string {
    return this.ring.encrypt(Buffer.from(serial, 'utf8'), keyId);
  }

  /** The serial; throws UndecryptableText when the text was altered, moved to another row, or is under a key not configured. */
  decrypt(stored: string, keyId: string): string {
    return this.ring.decrypt(stored, keyId).toString('utf8');
  }

  /** The same serial always gives the same hash; nobody without the key can test a guess against it. */
  serialHash(serial: string): string {
    return serialHashUnder(this.hashKeyObject, serial);
  }

  /** Wraps the serial-hash key under the current encryption key if it is not already; answers whether it did. */
  async rewrapHashKey(db: Db): Promise<boolean> {
    const stored = await vaultKey(db, SERIAL_HASH);
    if (!stored || this.ring.isCurrent(stored)) return false;
    return replaceVaultKey(db, SERIAL_HASH, stored, this.ring.encrypt(this.hashKey, SERIAL_HASH));
  }
}

function serialHashUnder(hashKey: Buffer | KeyObject, serial: string): string {
  return createHmac('sha256', hashKey).update(serial.trim()).digest('base64url');
}

/** The serial-hash key a store has always derived from its encryption key (before `vault_keys`). */
function derivedHashKey(encryptionKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', encryptionKey, Buffer.alloc(0), 'keystore serial hash', 32));
}

/**
 * The serial-hash key of a database that has none stored yet: derived from the encryption key the
 * stored serials were hashed under. A store upgraded and given a new key at once has its old key in
 * KEY_ENCRYPTION_KEY_PREVIOUS: one stored key tells which of the keys that was. It is wrapped under
 * that same key, like the stored keys, so that only `keys:reencrypt` moves it to the new key: until
 * then an instance without the old key refuses to start instead of failing to reveal old keys.
 */
async function firstHashKey(db: Db, ring: KeyRing): Promise<{ hashKey: Buffer; wrapUnder: KeyRing }> {
  const sample = await sampleKey(db);
  if (!sample) return { hashKey: derivedHashKey(ring.all[0]!), wrapUnder: ring };
  for (const key of ring.all) {
    const hashKey = derivedHashKey(key);
    const alone = new KeyRing(key.toString('hex'));
    let serial: string;
    try {
      serial = alone.decrypt(sample.serialEncrypted, sample.id).toString('utf8');
    } catch {
      continue;
    }
    if (serialHashUnder(hashKey, serial) === sample.serialHash) return { hashKey, wrapUnder: alone };
  }
  throw new Error(
    'The stored keys were encrypted under a key that is neither KEY_ENCRYPTION_KEY nor in KEY_ENCRYPTION_KEY_PREVIOUS: add it to KEY_ENCRYPTION_KEY_PREVIOUS.',
  );
}
