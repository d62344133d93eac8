import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A random id of lowercase letters and digits (16 characters, about 82 bits). Ids in paths must fit the
 * contract's ID_PATTERN (16 to 24 of these characters), or their routes answer 404 before looking them up.
 */
export function newId(length = 16): string {
  const bytes = randomBytes(length);
  let id = '';
  // 252 is the largest multiple of 36 below 256: rejecting above it keeps every character equally likely.
  for (let i = 0; id.length < length; i += 1) {
    if (i >= bytes.length) return id + newId(length - id.length);
    const byte = bytes[i]!;
    if (byte < 252) id += ALPHABET[byte % 36];
  }
  return id;
}
