import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A random id of lowercase letters and digits (16 characters, about 82 bits). Ids in paths must fit the
 * contract's ID_PATTERN (16 to 24 of these characters), or their routes answer 404 before looking them up.
 */
export function newId(length = 16): string {
  let id = '';
  // 252 is the largest multiple of 36 below 256: rejecting above it keeps every character equally likely.
  while (id.length < length) {
    const byte = randomByte();
    if (byte < 252) id += ALPHABET[byte % 36];
  }
  return id;
}

/**
 * Random bytes drawn from a pool filled a few kilobytes at a time, as nanoid does: a call into the
 * system's generator per id was a sixtieth of a purchase's work.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;
function randomByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++]!;
}
