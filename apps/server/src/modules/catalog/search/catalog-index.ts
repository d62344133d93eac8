import {
  FILTER_NAMES,
  FILTERS,
  type CatalogFilters,
  type Facets,
  type FilterName,
  type GameListItem,
  type QuickSearchHit,
  type Sort,
} from '@keystore/contract';
import { Bitset, intersectAll } from './bitset.ts';
import { TextSearch } from './text-search.ts';

/** What the index needs of a game: its list answer plus the fields it filters and sorts on. */
export interface IndexedGame {
  item: GameListItem;
  popularity: number;
  releasedAt: number;
}

export interface CatalogQuery {
  search?: string | undefined;
  sort: Sort;
  page: number;
  pageSize: number;
  filters: CatalogFilters;
}

export interface CatalogPage {
  items: GameListItem[];
  total: number;
  page: number;
  pageSize: number;
  facets: Facets;
}

/**
 * The catalogue held in memory for reads: one bitset per filter value, one precomputed order per
 * sort, and a text index. Documents are numbered by popularity, so that order is free and ties
 * anywhere fall back to popularity, then id.
 */
export class CatalogIndex {
  readonly size: number;
  private readonly items: GameListItem[];
  private readonly docById = new Map<string, number>();
  private readonly valueSets: Record<FilterName, Map<string, Bitset>>;
  private readonly orders: Record<Sort, Uint32Array>;
  private readonly text: TextSearch;
  private readonly everything: Bitset;

  constructor(games: readonly IndexedGame[]) {
    const ranked = [...games].sort((a, b) => b.popularity - a.popularity || compareIds(a.item._id, b.item._id));
    this.size = ranked.length;
    this.items = ranked.map((game) => game.item);
    this.items.forEach((item, doc) => this.docById.set(item._id, doc));
    this.everything = Bitset.full(this.size);

    this.valueSets = { category: new Map(), platform: new Map(), genre: new Map(), region: new Map(), language: new Map() };
    this.items.forEach((item, doc) => {
      const values: Record<FilterName, readonly string[]> = {
        category: [item.type],
        platform: [item.platform],
        genre: item.genre,
        region: [item.region],
        language: item.languages,
      };
      for (const name of FILTER_NAMES) {
        for (const value of values[name]) {
          let set = this.valueSets[name].get(value);
          if (!set) this.valueSets[name].set(value, (set = new Bitset(this.size)));
          set.add(doc);
        }
      }
    });

    const docs = Array.from({ length: this.size }, (_, doc) => doc);
    const price = (doc: number): number => this.items[doc]!.price;
    const released = ranked.map((game) => game.releasedAt);
    const byId = (a: number, b: number): number => compareIds(this.items[a]!._id, this.items[b]!._id);
    this.orders = {
      popularity: Uint32Array.from(docs),
      'price-asc': Uint32Array.from([...docs].sort((a, b) => price(a) - price(b) || byId(a, b))),
      'price-desc': Uint32Array.from([...docs].sort((a, b) => price(b) - price(a) || byId(a, b))),
      newest: Uint32Array.from([...docs].sort((a, b) => released[b]! - released[a]! || byId(a, b))),
    };
    this.text = new TextSearch(this.items.map((item) => item.title));
  }

  get(id: string): GameListItem | undefined {
    const doc = this.docById.get(id);
    return doc === undefined ? undefined : this.items[doc];
  }

  /** One page of the filtered, searched and sorted catalogue, with facet counts. */
  query(query: CatalogQuery): CatalogPage {
    const searched = query.search ? this.searchSet(query.search) : undefined;
    const selected = {} as Record<FilterName, Bitset | undefined>;
    for (const name of FILTER_NAMES) selected[name] = this.filterSet(name, query.filters[name]);

    const matching = intersectAll([searched, ...FILTER_NAMES.map((name) => selected[name])]) ?? this.everything;
    const facets = {} as Facets;
    for (const name of FILTER_NAMES) {
      // A filter's own selection does not narrow its counts: each count says what choosing that value would add.
      const others = intersectAll([searched, ...FILTER_NAMES.filter((other) => other !== name).map((other) => selected[other])]) ?? this.everything;
      facets[name] = FILTERS[name].map((value) => {
        const set = this.valueSets[name].get(value);
        return { value, count: set ? others.countAnd(set) : 0 };
      });
    }

    const total = matching === this.everything ? this.size : matching.count();
    const items: GameListItem[] = [];
    const skip = (query.page - 1) * query.pageSize;
    if (skip < total) {
      let seen = 0;
      for (const doc of this.orders[query.sort]) {
        if (!matching.has(doc)) continue;
        if (seen++ < skip) continue;
        items.push(this.items[doc]!);
        if (items.length === query.pageSize) break;
      }
    }
    return { items, total, page: query.page, pageSize: query.pageSize, facets };
  }

  /** Best matches first: titles containing the words, then typo-tolerant word-prefix matches. */
  search(text: string, limit: number): GameListItem[] {
    const docs: number[] = [];
    const taken = new Set<number>();
    const take = (set: Bitset): void => {
      for (const doc of set.first(limit + docs.length)) {
        if (docs.length >= limit) return;
        if (!taken.has(doc)) {
          taken.add(doc);
          docs.push(doc);
        }
      }
    };
    if (text.trim()) take(this.text.substring(text));
    for (const level of this.text.fuzzy(text)) {
      if (docs.length >= limit) break;
      take(level);
    }
    return docs.map((doc) => this.items[doc]!);
  }

  /** Search-as-you-type: typo-tolerant word prefixes, fewest typos first, then popularity. */
  quickSearch(text: string, limit: number): QuickSearchHit[] {
    const docs: number[] = [];
    const taken = new Set<number>();
    for (const level of this.text.fuzzy(text)) {
      for (const doc of level.first(limit + docs.length)) {
        if (docs.length >= limit) break;
        if (!taken.has(doc)) {
          taken.add(doc);
          docs.push(doc);
        }
      }
      if (docs.length >= limit) break;
    }
    return docs.map((doc) => {
      const { _id, title, platform } = this.items[doc]!;
      return { _id, title, platform };
    });
  }

  /**
   * The catalogue's text filter: titles containing every word of the query. When no title at all
   * does, it falls back to typo-tolerant matching, so "wicher" still finds The Witcher.
   */
  private searchSet(text: string): Bitset {
    const exact = this.text.substring(text);
    if (exact.count() > 0) return exact;
    const fuzzy = this.text.fuzzy(text);
    return fuzzy[fuzzy.length - 1] ?? exact;
  }

  private filterSet(name: FilterName, values: string[] | undefined): Bitset | undefined {
    if (!values) return undefined;
    const set = new Bitset(this.size);
    for (const value of values) {
      const own = this.valueSets[name].get(value);
      if (own) set.orInPlace(own);
    }
    return set;
  }
}

/** Byte order of ASCII ids, the same as PostgreSQL's `COLLATE "C"`. */
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
