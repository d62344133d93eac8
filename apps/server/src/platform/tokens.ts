// Random secrets sent by e-mail, and the hashes kept of them instead.
import { createHash, createHmac, createSecretKey, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** `length` random decimal digits, each equally likely (crypto.randomInt, no modulo bias). */
export function randomDigits(length: number): string {
  let digits = '';
  for (let i = 0; i < length; i += 1) digits += String(randomInt(10));
  return digits;
}

/** 32 random bytes (256 bits) as base64url: a token nobody can guess. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 of a high-entropy secret (a reset token): cannot be reversed, so a plain hash is enough. */
export function sha256(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * Keyed hashes for low-entropy secrets. A 6-digit code has only a million values, so a plain
 * SHA-256 of it would be reversed at once by whoever reads the table; keyed with a server secret
 * the stored hash is useless without that secret. Answers the hash under each key, in order: the
 * first (the current key) is what is stored, the others (previous keys) are still accepted.
 */
export function keyedHasher(keys: readonly string[], purpose: string): (secret: string) => string[] {
  // Key objects made once: an HMAC keyed with a buffer makes one on every call (five times the cost).
  const derived = keys.map((key) => createSecretKey(createHmac('sha256', key).update(`keystore:${purpose}`).digest()));
  return (secret) => derived.map((key) => createHmac('sha256', key).update(secret).digest('hex'));
}

/** Compares two hex hashes in constant time. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
