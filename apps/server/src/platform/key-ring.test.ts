import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyIdOf, KeyRing, UndecryptableText } from './key-ring.ts';

const OLD = '11'.repeat(32);
const NEW = '22'.repeat(32);

/** A text as stores wrote them before texts named their key: `v1.` + base64url(iv | tag | ciphertext). */
function v1Text(keyHex: string, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), iv);
  cipher.setAAD(Buffer.from(context));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
}

describe('KeyRing', () => {
  it('names the current key in each text, by an id that is not the key', () => {
    const ring = new KeyRing(NEW, [OLD]);
    const text = ring.encrypt(Buffer.from('ABCDE-12345'), 'row-1');
    expect(ring.currentId).toMatch(/^[0-9a-f]{8}$/);
    expect(ring.currentId).toBe(keyIdOf(Buffer.from(NEW, 'hex')));
    expect(NEW).not.toContain(ring.currentId);
    expect(text.startsWith(`v2.${ring.currentId}.`)).toBe(true);
    expect(ring.isCurrent(text)).toBe(true);
    expect(ring.decrypt(text, 'row-1').toString()).toBe('ABCDE-12345');
  });

  it('decrypts what a previous key encrypted, and refuses it once that key is gone', () => {
    const old = new KeyRing(OLD).encrypt(Buffer.from('ABCDE-12345'), 'row-1');
    const rotated = new KeyRing(NEW, [OLD]);
    expect(rotated.isCurrent(old)).toBe(false);
    expect(rotated.decrypt(old, 'row-1').toString()).toBe('ABCDE-12345');
    expect(() => new KeyRing(NEW).decrypt(old, 'row-1')).toThrow(UndecryptableText);
  });

  it('still reads v1 texts, written before texts named their key, under the current or a previous key', () => {
    expect(new KeyRing(OLD).decrypt(v1Text(OLD, 'v1 serial', 'row-2'), 'row-2').toString()).toBe('v1 serial');
    expect(new KeyRing(NEW, [OLD]).decrypt(v1Text(OLD, 'v1 serial', 'row-2'), 'row-2').toString()).toBe('v1 serial');
    expect(() => new KeyRing(NEW).decrypt(v1Text(OLD, 'v1 serial', 'row-2'), 'row-2')).toThrow(UndecryptableText);
  });

  it('refuses a text moved to another context or altered', () => {
    const ring = new KeyRing(NEW);
    const text = ring.encrypt(Buffer.from('ABCDE-12345'), 'row-1');
    expect(() => ring.decrypt(text, 'row-2')).toThrow(UndecryptableText);
    const flipped = `${text.slice(0, -2)}${text.at(-2) === 'A' ? 'B' : 'A'}${text.at(-1)}`;
    expect(() => ring.decrypt(flipped, 'row-1')).toThrow(UndecryptableText);
    expect(() => ring.decrypt('v9.whatever', 'row-1')).toThrow(UndecryptableText);
  });
});
