import {
  DEFAULT_SORT,
  FILTER_NAMES,
  PLATFORM_SLUGS,
  SORTS,
  STORE_PAGE_SIZE,
  type FilterName,
  type Sort,
} from '@keystore/contract/constants';
import { parseFilterList } from '@keystore/contract/catalog-rules';

/** The selected values of each of the five filters, in their canonical spelling ([] = no restriction). */
export type StoreFilters = Record<FilterName, string[]>;

/** Everything the store page shows is derived from this, and this lives in the URL query (SPEC §2). */
export interface StoreState {
  search: string;
  sort: Sort;
  page: number;
  filters: StoreFilters;
}

const slugOfPlatform: Record<string, string> = Object.fromEntries(Object.entries(PLATFORM_SLUGS).map(([slug, name]) => [name, slug]));

/** Five empty filters. */
export function noFilters(): StoreFilters {
  return { category: [], platform: [], genre: [], region: [], language: [] };
}

/** One filter's comma list from the URL, canonicalised by the contract's rule (empty: no restriction). */
export function parseFilterValues(name: FilterName, raw: string | null): string[] {
  return parseFilterList(name, raw ?? undefined) ?? [];
}

/** Reads the store's state from the URL query; anything missing or invalid falls back to its default. */
export function parseStoreState(params: URLSearchParams): StoreState {
  const sort = params.get('sort');
  const page = Number(params.get('page'));
  const filters = noFilters();
  for (const name of FILTER_NAMES) filters[name] = parseFilterValues(name, params.get(name));
  return {
    search: params.get('search')?.trim() ?? '',
    sort: (SORTS as readonly string[]).includes(sort ?? '') ? (sort as Sort) : DEFAULT_SORT,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    filters,
  };
}

/**
 * Writes the state as a URL query ("?search=…&platform=pc,steam&page=2"), defaults left out.
 * Commas stay readable; platforms are written as their slugs.
 */
export function storeSearch(state: StoreState): string {
  const parts: string[] = [];
  if (state.search) parts.push(`search=${encodeURIComponent(state.search)}`);
  for (const name of FILTER_NAMES) {
    const values = state.filters[name].map((value) => (name === 'platform' ? (slugOfPlatform[value] ?? value) : value));
    if (values.length > 0) parts.push(`${name}=${values.map(encodeURIComponent).join(',')}`);
  }
  if (state.sort !== DEFAULT_SORT) parts.push(`sort=${state.sort}`);
  if (state.page > 1) parts.push(`page=${state.page}`);
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** The `/api/games` query for a state: the same filters (by name), sort, page and the store's page size. */
export function apiQuery(state: StoreState): string {
  const query = new URLSearchParams();
  if (state.search) query.set('search', state.search);
  for (const name of FILTER_NAMES) if (state.filters[name].length > 0) query.set(name, state.filters[name].join(','));
  query.set('sort', state.sort);
  query.set('page', String(state.page));
  query.set('pageSize', String(STORE_PAGE_SIZE));
  return query.toString();
}

/** The state with new filters; the page returns to 1 because the list changed. */
export function withFilters(state: StoreState, filters: StoreFilters): StoreState {
  return { ...state, filters, page: 1 };
}

/** The state with one filter's values replaced; the page returns to 1. */
export function withFilter(state: StoreState, name: FilterName, values: string[]): StoreState {
  return withFilters(state, { ...state.filters, [name]: values });
}

/** The state with a new sort; the page returns to 1. */
export function withSort(state: StoreState, sort: Sort): StoreState {
  return { ...state, sort, page: 1 };
}

/** The state on another page. */
export function withPage(state: StoreState, page: number): StoreState {
  return { ...state, page };
}

/** Identifies the list a state shows regardless of its page: equal keys mean the same filtered list. */
export function listKey(state: StoreState): string {
  return apiQuery(withPage(state, 1));
}

/** Whether two filter selections are the same (order of values ignored). */
export function sameFilters(a: StoreFilters, b: StoreFilters): boolean {
  return FILTER_NAMES.every((name) => a[name].length === b[name].length && a[name].every((value) => b[name].includes(value)));
}
