import { Bitset } from './bitset.ts';

/**
 * Text search over titles, with documents numbered 0..n-1 in the order results should be ranked
 * among equals (the catalogue numbers them by popularity).
 *
 * Two ways to match:
 * - `substring`: every whitespace-separated word of the query occurs in the lowercased title,
 *   exactly what `lower(title) LIKE '%word%'` answers in SQL. A trigram index finds the candidates.
 * - `fuzzy`: every word of the query is the prefix of a title word, allowing typos (none up to
 *   3 letters, 1 up to 6, 2 beyond), found by walking a trie of the title words with an edit-distance row.
 */
export class TextSearch {
  private readonly size: number;
  private readonly titles: string[];
  private readonly trigrams = new Map<number, Uint32Array>();
  private readonly vocabulary: string[];
  private readonly postings: Uint32Array[];
  private readonly trie: TrieNode;

  constructor(titles: readonly string[]) {
    this.size = titles.length;
    this.titles = titles.map((title) => title.toLowerCase());

    const trigramDocs = new Map<number, number[]>();
    const wordDocs = new Map<string, number[]>();
    this.titles.forEach((title, doc) => {
      for (const gram of trigramsOf(title)) push(trigramDocs, gram, doc);
      for (const word of wordsOf(title)) push(wordDocs, word, doc);
    });
    for (const [gram, docs] of trigramDocs) this.trigrams.set(gram, Uint32Array.from(docs));

    this.vocabulary = [...wordDocs.keys()].sort();
    this.postings = this.vocabulary.map((word) => Uint32Array.from(wordDocs.get(word)!));
    this.trie = buildTrie(this.vocabulary);
  }

  /** Documents whose lowercased title contains every word of the query. */
  substring(query: string): Bitset {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const result = new Bitset(this.size);
    if (words.length === 0) return Bitset.full(this.size);
    // Candidates: titles holding the rarest trigram of each word (a sorted-list intersection).
    let candidates: Uint32Array | undefined;
    for (const word of words) {
      let rarest: Uint32Array | undefined;
      for (const gram of trigramsOf(word)) {
        const docs = this.trigrams.get(gram) ?? EMPTY;
        if (!rarest || docs.length < rarest.length) rarest = docs;
      }
      if (rarest) candidates = candidates ? intersectSorted(candidates, rarest) : rarest;
    }
    const matches = (doc: number): boolean => words.every((word) => this.titles[doc]!.includes(word));
    if (candidates) {
      for (const doc of candidates) if (matches(doc)) result.add(doc);
    } else {
      for (let doc = 0; doc < this.size; doc += 1) if (matches(doc)) result.add(doc);
    }
    return result;
  }

  /**
   * Documents matching every query word as a (typo-tolerant) word prefix, by quality:
   * entry L holds the documents where no word needed more than L edits. Empty for a query without words.
   */
  fuzzy(query: string): Bitset[] {
    const words = wordsOf(query.toLowerCase());
    if (words.length === 0) return [];
    const perWord = words.map((word) => this.fuzzyWord(word));
    const levels = Math.max(...perWord.map((levels) => levels.length));
    const result: Bitset[] = [];
    for (let level = 0; level < levels; level += 1) {
      let docs: Bitset | undefined;
      for (const wordLevels of perWord) {
        const own = wordLevels[Math.min(level, wordLevels.length - 1)]!;
        docs = docs ? docs.andInPlace(own) : own.clone();
      }
      result.push(docs!);
    }
    return result;
  }

  /** For one query word: cumulative document sets by number of edits, 0..maxEdits. */
  private fuzzyWord(word: string): Bitset[] {
    const maxEdits = allowedEdits(word);
    const ranges: Array<{ lo: number; hi: number; cost: number }> = [];
    const first = Array.from({ length: word.length + 1 }, (_, j) => j);
    const walk = (node: TrieNode, char: string, row: number[], previous: number[] | undefined, previousChar: string): void => {
      const next = [row[0]! + 1];
      let best = next[0]!;
      for (let j = 1; j <= word.length; j += 1) {
        const substitution = row[j - 1]! + (word[j - 1] === char ? 0 : 1);
        let cost = Math.min(row[j]! + 1, next[j - 1]! + 1, substitution);
        // Swapped neighbours ("wtich") count as one edit.
        if (previous && j > 1 && word[j - 1] === previousChar && word[j - 2] === char) cost = Math.min(cost, previous[j - 2]! + 1);
        next.push(cost);
        if (cost < best) best = cost;
      }
      const whole = next[word.length]!;
      if (whole <= maxEdits) ranges.push({ lo: node.lo, hi: node.hi, cost: whole });
      // Deeper nodes only matter while they could still match, and more cheaply than this one.
      if (best > maxEdits || (whole <= maxEdits && best >= whole)) return;
      for (const [childChar, child] of node.children) walk(child, childChar, next, row, char);
    };
    for (const [char, child] of this.trie.children) walk(child, char, first, undefined, '');

    const levels = Array.from({ length: maxEdits + 1 }, () => new Bitset(this.size));
    for (const { lo, hi, cost } of ranges) {
      for (let w = lo; w < hi; w += 1) {
        for (const doc of this.postings[w]!) {
          for (let level = cost; level <= maxEdits; level += 1) levels[level]!.add(doc);
        }
      }
    }
    return levels;
  }
}

interface TrieNode {
  children: Map<string, TrieNode>;
  /** The words under this node are vocabulary[lo..hi). */
  lo: number;
  hi: number;
}

function buildTrie(sortedWords: readonly string[]): TrieNode {
  const root: TrieNode = { children: new Map(), lo: 0, hi: sortedWords.length };
  sortedWords.forEach((word, index) => {
    let node = root;
    for (const char of word) {
      let child = node.children.get(char);
      if (!child) {
        child = { children: new Map(), lo: index, hi: index + 1 };
        node.children.set(char, child);
      }
      child.hi = index + 1;
      node = child;
    }
  });
  return root;
}

function allowedEdits(word: string): number {
  if (word.length <= 3) return 0;
  if (word.length <= 6) return 1;
  return 2;
}

/** Title words for fuzzy matching: lowercase letters and digits, accents removed ("Pokémon" → "pokemon"). */
function wordsOf(text: string): string[] {
  if (ASCII.test(text)) return text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

const EMPTY = new Uint32Array(0);
const ASCII = /^[ -~]*$/;

/** Trigrams as numbers (three UTF-16 units), which a Map looks up faster than strings. */
function trigramsOf(text: string): number[] {
  const grams: number[] = [];
  for (let i = 0; i + 3 <= text.length; i += 1) {
    grams.push(text.charCodeAt(i) * 4294967296 + text.charCodeAt(i + 1) * 65536 + text.charCodeAt(i + 2));
  }
  return grams;
}

function intersectSorted(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out: number[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i]! < b[j]!) i += 1;
    else if (a[i]! > b[j]!) j += 1;
    else {
      out.push(a[i]!);
      i += 1;
      j += 1;
    }
  }
  return Uint32Array.from(out);
}

/** Documents arrive in order, so a repeat within one title is always the last entry. */
function push<K>(map: Map<K, number[]>, key: K, doc: number): void {
  const list = map.get(key);
  if (!list) map.set(key, [doc]);
  else if (list[list.length - 1] !== doc) list.push(doc);
}
