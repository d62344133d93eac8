// Keys at rest (docs/decisions/008). A serial is stored AES-256-GCM encrypted under
// KEY_ENCRYPTION_KEY, bound to its row id as associated data (a ciphertext copied onto another row
// does not decrypt), and as an HMAC-SHA256 under a key derived from the same secret, so the database
// can refuse a serial sold before without ever holding it in the clear.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class KeyVault {
  private readonly encryptionKey: Buffer;
  private readonly hashKey: Buffer;

  /** `secretHex`: 32 bytes as 64 hex digits (config.secrets.keyEncryption). */
  constructor(secretHex: string) {
    this.encryptionKey = Buffer.from(secretHex, 'hex');
    if (this.encryptionKey.length !== 32) throw new Error('The key encryption key must be 32 bytes (64 hex digits)');
    this.hashKey = Buffer.from(hkdfSync('sha256', this.encryptionKey, Buffer.alloc(0), 'keystore serial hash', 32));
  }

  /** `v1.` + base64url(iv | tag | ciphertext). */
  encrypt(serial: string, keyId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    cipher.setAAD(Buffer.from(keyId));
    const ciphertext = Buffer.concat([cipher.update(serial, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
  }

  /** The serial; throws when the text was altered, moved to another row, or encrypted under another secret. */
  decrypt(stored: string, keyId: string): string {
    const [version, payload] = stored.split('.');
    if (version !== VERSION || !payload) throw new Error('Unknown key encryption format');
    const bytes = Buffer.from(payload, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(keyId));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  /** The same serial always gives the same hash; nobody without the secret can test a guess against it. */
  serialHash(serial: string): string {
    return createHmac('sha256', this.hashKey).update(serial.trim()).digest('base64url');
  }
}
