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
import { Lru } from '../../../platform/lru.ts';
import { idRanks, interner, listInterner, numberRanks } from './ranks.ts';
import { TextSearch } from './text-search.ts';

/** What the index holds of a game: its list answer's fields, plus what it ranks and sorts on. */
export interface IndexedGame {
  id: string;
  title: string;
  image: string | null;
  coverImage: string | null;
  platform: string;
  type: string;
  genres: string[];
  region: string;
  languages: string[];
  pegi: number;
  priceCents: number;
  originalPriceCents: number | null;
  /** 0 when the product is out of stock or has left the feed. */
  stock: number;
  popularity: number;
  releasedAt: number;
  createdAt: number;
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
  // The games, column by column: far less memory than one object per game. Repeated values
  // (platforms, regions, genre and language lists) are shared, not copied per row.
  private readonly ids: string[];
  private readonly titles: string[];
  private readonly platforms: string[];
  private readonly types: string[];
  private readonly regions: string[];
  private readonly genres: string[][];
  private readonly languages: string[][];
  private readonly images: Array<string | null>;
  private readonly covers: Array<string | null>;
  private readonly priceCents: Int32Array;
  private readonly originalCents: Int32Array;
  private readonly stock: Int32Array;
  private readonly pegi: Uint8Array;
  private readonly createdAt: Float64Array;
  private readonly coverUrl: (id: string) => string;
  private readonly json: Array<string | undefined>;
  private readonly docById = new Map<string, number>();
  private readonly valueSets: Record<FilterName, Map<string, Bitset>>;
  private readonly orders: Record<Sort, Uint32Array>;
  /** Sorts the documents by a number (ties by id rank): kept to sort by price again after an offer moved it. */
  private readonly orderBy: (value: (doc: number) => number) => Uint32Array;
  private priceOrdersStale = false;
  private readonly text: TextSearch;
  private readonly everything: Bitset;
  private readonly selections = new Lru<string, Selection>(SELECTION_CACHE_SIZE);

  constructor(games: readonly IndexedGame[], coverUrl: (id: string) => string) {
    this.coverUrl = coverUrl;
    const n = (this.size = games.length);
    // Documents are numbered by popularity, then id: sort keys are numbers, ids ranked once.
    const idRank = idRanks(games.map((game) => game.id));
    const width = 2 ** Math.ceil(Math.log2(Math.max(2, n)));
    const maxPopularity = games.reduce((max, game) => Math.max(max, game.popularity), 0);
    const byRank = new Uint32Array(n);
    const popularityKeys = new Float64Array(n);
    games.forEach((game, row) => {
      byRank[idRank[row]!] = row;
      popularityKeys[row] = (maxPopularity - game.popularity) * width + idRank[row]!;
    });
    const rowOfDoc = Array.from(popularityKeys.sort(), (key) => byRank[key % width]!);

    const intern = interner();
    const internList = listInterner();
    this.ids = new Array<string>(n);
    this.titles = new Array<string>(n);
    this.platforms = new Array<string>(n);
    this.types = new Array<string>(n);
    this.regions = new Array<string>(n);
    this.genres = new Array<string[]>(n);
    this.languages = new Array<string[]>(n);
    this.images = new Array<string | null>(n);
    this.covers = new Array<string | null>(n);
    this.priceCents = new Int32Array(n);
    this.originalCents = new Int32Array(n);
    this.stock = new Int32Array(n);
    this.pegi = new Uint8Array(n);
    this.createdAt = new Float64Array(n);
    this.json = new Array<string | undefined>(n);
    this.everything = Bitset.full(n);
    this.valueSets = { category: new Map(), platform: new Map(), genre: new Map(), region: new Map(), language: new Map() };
    const addValue = (name: FilterName, value: string, doc: number): void => {
      let set = this.valueSets[name].get(value);
      if (!set) this.valueSets[name].set(value, (set = new Bitset(n)));
      set.add(doc);
    };
    const docRank = new Uint32Array(n);
    rowOfDoc.forEach((row, doc) => {
      const game = games[row]!;
      docRank[doc] = idRank[row]!;
      this.ids[doc] = game.id;
      this.titles[doc] = game.title;
      this.platforms[doc] = intern(game.platform);
      this.types[doc] = intern(game.type);
      this.regions[doc] = intern(game.region);
      this.genres[doc] = internList(game.genres);
      this.languages[doc] = internList(game.languages);
      this.images[doc] = game.image;
      this.covers[doc] = game.coverImage;
      this.priceCents[doc] = game.priceCents;
      this.originalCents[doc] = game.originalPriceCents ?? -1;
      this.stock[doc] = game.stock;
      this.pegi[doc] = game.pegi;
      this.createdAt[doc] = game.createdAt;
      this.docById.set(game.id, doc);
      addValue('category', game.type, doc);
      addValue('platform', game.platform, doc);
      addValue('region', game.region, doc);
      for (const genre of game.genres) addValue('genre', genre, doc);
      for (const language of game.languages) addValue('language', language, doc);
    });

    // Each order sorts one number per document: the sort value ranked, times the width, plus the id rank.
    const docOfRank = new Uint32Array(n);
    docRank.forEach((rank, doc) => (docOfRank[rank] = doc));
    const orderBy = (this.orderBy = (value: (doc: number) => number): Uint32Array => {
      const valueRank = numberRanks(Float64Array.from({ length: n }, (_, doc) => value(doc)));
      const keys = Float64Array.from({ length: n }, (_, doc) => valueRank[doc]! * width + docRank[doc]!);
      return Uint32Array.from(keys.sort(), (key) => docOfRank[key % width]!);
    });
    this.orders = {
      popularity: Uint32Array.from({ length: n }, (_, doc) => doc),
      'price-asc': orderBy((doc) => this.priceCents[doc]!),
      'price-desc': orderBy((doc) => -this.priceCents[doc]!),
      newest: orderBy((doc) => -games[rowOfDoc[doc]!]!.releasedAt),
    };
    this.text = new TextSearch(this.titles);
  }

  /** The list answer of a game as JSON, serialised on first use and kept (most traffic shows the same games). */
  itemJson(doc: number): string {
    return (this.json[doc] ??= JSON.stringify(this.item(doc)));
  }

  /** The list answer of a game. */
  item(doc: number): GameListItem {
    const id = this.ids[doc]!;
    const original = this.originalCents[doc]!;
    return {
      _id: id,
      title: this.titles[doc]!,
      image: this.images[doc] ?? this.coverUrl(id),
      coverImage: this.covers[doc] ?? this.coverUrl(id),
      platform: this.platforms[doc]!,
      price: this.priceCents[doc]! / 100,
      originalPrice: original < 0 ? null : original / 100,
      type: this.types[doc]!,
      genre: this.genres[doc]!,
      region: this.regions[doc]!,
      languages: this.languages[doc]!,
      pegi: this.pegi[doc]!,
      stock: this.stock[doc]!,
      createdAt: new Date(this.createdAt[doc]!).toISOString(),
    };
  }

  /**
   * A game's stock as it is now (keys sold or put back between rebuilds); answers whether that
   * changed what the index shows. Its cached list answer is dropped, so the next list shows the new count.
   */
  setStock(id: string, stock: number): boolean {
    const doc = this.docById.get(id);
    if (doc === undefined || this.stock[doc] === stock) return false;
    this.stock[doc] = stock;
    this.json[doc] = undefined;
    return true;
  }

  /**
   * A game's shown price changed (an offer was added, repriced, paused or sold out): its answer is made
   * again, and the price orders are sorted again when next asked for. Answers whether it changed.
   */
  setPrice(id: string, priceCents: number): boolean {
    const doc = this.docById.get(id);
    if (doc === undefined || this.priceCents[doc] === priceCents) return false;
    this.priceCents[doc] = priceCents;
    this.json[doc] = undefined;
    this.priceOrdersStale = true;
    return true;
  }

  /** Every game id, most popular first. */
  gameIds(): readonly string[] {
    return this.ids;
  }

  /** The document number of a game, if it is in this index. */
  docOf(id: string): number | undefined {
    return this.docById.get(id);
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
      if (this.priceOrdersStale && query.sort.startsWith('price')) {
        this.orders['price-asc'] = this.orderBy((doc) => this.priceCents[doc]!);
        this.orders['price-desc'] = this.orderBy((doc) => -this.priceCents[doc]!);
        this.priceOrdersStale = false;
      }
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
