// Authenticated encryption (AES-256-GCM) under a ring of keys: the current key encrypts, every key
// of the ring decrypts. Each text names its key, so a new key can be introduced while what an older
// one encrypted stays readable until it is re-encrypted (docs/decisions/012).
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The text does not decrypt under any key of the ring: altered, bound to another context, or under a key not given. */
export class UndecryptableText extends Error {}

/** A key's public name: 8 hex digits of an HMAC under it, which says nothing about the key itself. */
export function keyIdOf(key: Buffer): string {
  return createHmac('sha256', key).update('keystore key id').digest('hex').slice(0, 8);
}

export class KeyRing {
  /** The id of the key new texts are encrypted under. */
  readonly currentId: string;
  /** Every key by id, the current one first. */
  private readonly keys: Map<string, Buffer>;

  /** Keys of 32 bytes as 64 hex digits: the current one, then the previous ones. */
  constructor(currentHex: string, previousHex: readonly string[] = []) {
    const keys = [currentHex, ...previousHex].map((hex) => {
      const key = Buffer.from(hex, 'hex');
      if (key.length !== 32) throw new Error('An encryption key must be 32 bytes (64 hex digits)');
      return key;
    });
    this.keys = new Map(keys.map((key) => [keyIdOf(key), key]));
    this.currentId = keyIdOf(keys[0]!);
  }

  /** Every key, the current one first: for data made under a key before key ids existed. */
  get all(): Buffer[] {
    return [...this.keys.values()];
  }

  /** `v2.<key id>.` + base64url(iv | tag | ciphertext); `context` is bound as associated data. */
  encrypt(plaintext: Buffer, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentId)!, iv);
    cipher.setAAD(Buffer.from(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return `v2.${this.currentId}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
  }

  /**
   * The plaintext of a text encrypted with the same `context`. `v1.` texts, written before texts
   * named their key, are tried under every key. Throws UndecryptableText.
   */
  decrypt(stored: string, context: string): Buffer {
    const parts = stored.split('.');
    if (parts[0] === 'v2' && parts.length === 3) {
      const key = this.keys.get(parts[1]!);
      if (!key) throw new UndecryptableText(`Encrypted under key ${parts[1]}, which is not configured`);
      return this.open(key, parts[2]!, context);
    }
    if (parts[0] === 'v1' && parts.length === 2) {
      for (const key of this.keys.values()) {
        try {
          return this.open(key, parts[1]!, context);
        } catch {
          // Not this key (GCM's tag does not match): try the next one.
        }
      }
      throw new UndecryptableText('Encrypted under none of the configured keys');
    }
    throw new UndecryptableText('Unknown encryption format');
  }

  /** Whether the text is encrypted under the current key, so re-encrypting it would change nothing. */
  isCurrent(stored: string): boolean {
    return stored.startsWith(`v2.${this.currentId}.`);
  }

  private open(key: Buffer, payload: string, context: string): Buffer {
    const bytes = Buffer.from(payload, 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    } catch (error) {
      throw new UndecryptableText('Altered, bound to another context, or encrypted under another key', { cause: error });
    }
  }
}
