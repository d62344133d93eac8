/** A fixed-size set of document numbers, one bit each: the building block of filters and facets. */
export class Bitset {
  readonly words: Uint32Array;
  readonly size: number;

  constructor(size: number, words?: Uint32Array) {
    this.size = size;
    this.words = words ?? new Uint32Array((size + 31) >>> 5);
  }

  /** Every document from 0 to size - 1. */
  static full(size: number): Bitset {
    const set = new Bitset(size);
    set.words.fill(0xffffffff);
    const rest = size & 31;
    if (rest !== 0) set.words[set.words.length - 1] = (1 << rest) - 1 >>> 0;
    return set;
  }

  add(doc: number): void {
    this.words[doc >>> 5]! |= 1 << (doc & 31);
  }

  has(doc: number): boolean {
    return (this.words[doc >>> 5]! & (1 << (doc & 31))) !== 0;
  }

  count(): number {
    let total = 0;
    for (const word of this.words) total += popcount(word);
    return total;
  }

  /** How many documents are in this set and in `other`, without building the intersection. */
  countAnd(other: Bitset): number {
    let total = 0;
    const a = this.words;
    const b = other.words;
    for (let i = 0; i < a.length; i += 1) total += popcount(a[i]! & b[i]!);
    return total;
  }

  /** Keeps only the documents also in `other`. */
  andInPlace(other: Bitset): this {
    const a = this.words;
    const b = other.words;
    for (let i = 0; i < a.length; i += 1) a[i]! &= b[i]!;
    return this;
  }

  orInPlace(other: Bitset): this {
    const a = this.words;
    const b = other.words;
    for (let i = 0; i < a.length; i += 1) a[i]! |= b[i]!;
    return this;
  }

  clone(): Bitset {
    return new Bitset(this.size, this.words.slice());
  }

  /** The documents of the set in ascending order, at most `limit` of them. */
  first(limit: number): number[] {
    const docs: number[] = [];
    for (let w = 0; w < this.words.length && docs.length < limit; w += 1) {
      let word = this.words[w]!;
      while (word !== 0 && docs.length < limit) {
        const low = word & -word;
        docs.push((w << 5) + 31 - Math.clz32(low));
        word ^= low;
      }
    }
    return docs;
  }
}

/** Intersection of the given sets; `undefined` entries mean "no restriction". Undefined when all are. */
export function intersectAll(sets: ReadonlyArray<Bitset | undefined>): Bitset | undefined {
  let result: Bitset | undefined;
  for (const set of sets) {
    if (!set) continue;
    result = result ? result.andInPlace(set) : set.clone();
  }
  return result;
}

/** Bits set in each 16-bit number: two table look-ups count a word. */
const BITS = new Uint8Array(65536);
for (let i = 1; i < 65536; i += 1) BITS[i] = (i & 1) + BITS[i >>> 1]!;

function popcount(value: number): number {
  return BITS[value & 0xffff]! + BITS[value >>> 16]!;
}
