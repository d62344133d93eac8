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
import { Lru } from './lru.ts';
import { TextSearch } from './text-search.ts';

/** What the index needs of a game: its list answer plus the fields it ranks and sorts on. */
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

/** One page of results: the documents to show, in order, with the counts around them. */
export interface CatalogPage {
  docs: number[];
  total: number;
  page: number;
  pageSize: number;
  facets: Facets;
  /** `facets` already serialised: the same for every page and sort of one selection. */
  facetsJson: string;
}

interface Selection {
  matching: Bitset;
  total: number;
  facets: Facets;
  facetsJson: string;
}

const SELECTION_CACHE_SIZE = 512;

/**
 * The catalogue held in memory for reads: one bitset per filter value, one precomputed order per
 * sort, a text index, and each game's list answer already serialised. Documents are numbered by
 * popularity (then id), so that order is free and every sort breaks ties the same way SQL's
 * `order by …, id` does.
 *
 * The matching set and facet counts of a selection (search text + filters) are kept in a small
 * LRU cache: shoppers page and re-sort the same selection far more often than they change it.
 */
export class CatalogIndex {
  readonly size: number;
  private readonly ids: string[];
  private readonly titles: string[];
  private readonly platforms: string[];
  private readonly types: string[];
  private readonly json: string[];
  private readonly docById = new Map<string, number>();
  private readonly valueSets: Record<FilterName, Map<string, Bitset>>;
  private readonly orders: Record<Sort, Uint32Array>;
  private readonly text: TextSearch;
  private readonly everything: Bitset;
  private readonly selections = new Lru<string, Selection>(SELECTION_CACHE_SIZE);

  constructor(games: readonly IndexedGame[]) {
    const ranked = [...games].sort((a, b) => b.popularity - a.popularity || compareIds(a.item._id, b.item._id));
    const n = (this.size = ranked.length);
    const intern = interner();
    this.ids = new Array<string>(n);
    this.titles = new Array<string>(n);
    this.platforms = new Array<string>(n);
    this.types = new Array<string>(n);
    this.json = new Array<string>(n);
    const prices = new Float64Array(n);
    const released = new Float64Array(n);
    this.everything = Bitset.full(n);
    this.valueSets = { category: new Map(), platform: new Map(), genre: new Map(), region: new Map(), language: new Map() };
    const addValue = (name: FilterName, value: string, doc: number): void => {
      let set = this.valueSets[name].get(value);
      if (!set) this.valueSets[name].set(value, (set = new Bitset(n)));
      set.add(doc);
    };

    ranked.forEach(({ item, releasedAt }, doc) => {
      this.ids[doc] = item._id;
      this.titles[doc] = item.title;
      this.platforms[doc] = intern(item.platform);
      this.types[doc] = intern(item.type);
      this.json[doc] = JSON.stringify(item);
      this.docById.set(item._id, doc);
      prices[doc] = item.price;
      released[doc] = releasedAt;
      addValue('category', item.type, doc);
      addValue('platform', item.platform, doc);
      addValue('region', item.region, doc);
      for (const genre of item.genre) addValue('genre', genre, doc);
      for (const language of item.languages) addValue('language', language, doc);
    });

    const docs = Array.from({ length: n }, (_, doc) => doc);
    const byId = (a: number, b: number): number => compareIds(this.ids[a]!, this.ids[b]!);
    this.orders = {
      popularity: Uint32Array.from(docs),
      'price-asc': Uint32Array.from([...docs].sort((a, b) => prices[a]! - prices[b]! || byId(a, b))),
      'price-desc': Uint32Array.from([...docs].sort((a, b) => prices[b]! - prices[a]! || byId(a, b))),
      newest: Uint32Array.from([...docs].sort((a, b) => released[b]! - released[a]! || byId(a, b))),
    };
    this.text = new TextSearch(this.titles);
  }

  /** The list answer of a game, as JSON. */
  itemJson(doc: number): string {
    return this.json[doc]!;
  }

  item(doc: number): GameListItem {
    return JSON.parse(this.json[doc]!) as GameListItem;
  }

  get(id: string): { title: string; platform: string; type: string } | undefined {
    const doc = this.docById.get(id);
    return doc === undefined ? undefined : { title: this.titles[doc]!, platform: this.platforms[doc]!, type: this.types[doc]! };
  }

  /** One page of the filtered, searched and sorted catalogue, with facet counts. */
  query(query: CatalogQuery): CatalogPage {
    const { matching, total, facets, facetsJson } = this.select(query.search, query.filters);
    const docs: number[] = [];
    const skip = (query.page - 1) * query.pageSize;
    if (skip < total) {
      let seen = 0;
      for (const doc of this.orders[query.sort]) {
        if (!matching.has(doc)) continue;
        if (seen++ < skip) continue;
        docs.push(doc);
        if (docs.length === query.pageSize) break;
      }
    }
    return { docs, total, page: query.page, pageSize: query.pageSize, facets, facetsJson };
  }

  /** Best matches first: titles containing the words, then typo-tolerant word-prefix matches. */
  search(text: string, limit: number): number[] {
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
    take(this.text.substring(text));
    if (docs.length < limit) for (const level of this.text.fuzzy(text)) {
      take(level);
      if (docs.length >= limit) break;
    }
    return docs;
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
    return docs.map((doc) => ({ _id: this.ids[doc]!, title: this.titles[doc]!, platform: this.platforms[doc]! }));
  }

  /** The documents a search and filters select, and the facet counts around them (cached). */
  private select(search: string | undefined, filters: CatalogFilters): Selection {
    const key = JSON.stringify([search ?? '', FILTER_NAMES.map((name) => filters[name] ?? null)]);
    const cached = this.selections.get(key);
    if (cached) return cached;

    const searched = search ? this.searchSet(search) : undefined;
    const selected = {} as Record<FilterName, Bitset | undefined>;
    for (const name of FILTER_NAMES) selected[name] = this.filterSet(name, filters[name]);
    const matching = intersectAll([searched, ...FILTER_NAMES.map((name) => selected[name])]) ?? this.everything;

    const facets = {} as Facets;
    for (const name of FILTER_NAMES) {
      // A filter's own selection does not narrow its counts: each count tells what choosing that value gives.
      // Filters without a selection all count against the matching set itself.
      const others = selected[name]
        ? (intersectAll([searched, ...FILTER_NAMES.filter((other) => other !== name).map((other) => selected[other])]) ?? this.everything)
        : matching;
      facets[name] = FILTERS[name].map((value) => {
        const set = this.valueSets[name].get(value);
        return { value, count: set ? others.countAnd(set) : 0 };
      });
    }
    const selection = { matching, total: matching === this.everything ? this.size : matching.count(), facets, facetsJson: JSON.stringify(facets) };
    this.selections.set(key, selection);
    return selection;
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

/** One shared string per distinct value, instead of one per row read from the database. */
function interner(): (value: string) => string {
  const seen = new Map<string, string>();
  return (value) => {
    const known = seen.get(value);
    if (known !== undefined) return known;
    seen.set(value, value);
    return value;
  };
}
