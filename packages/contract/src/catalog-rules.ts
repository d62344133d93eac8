// The catalogue's rules that need no zod: reading the store's filter lists from a URL. Imported by
// the server's query schemas and by the web app's URL state alike (`@keystore/contract/catalog-rules`).
import { ALL_CATEGORIES, FILTER_NAMES, FILTERS, PLATFORM_SLUGS, type FilterName } from './constants.ts';

/** The selected values of each filter, in their canonical spelling. Absent: no restriction. */
export type CatalogFilters = Partial<Record<FilterName, string[]>>;

/**
 * Turns one filter's comma list from the URL into canonical values.
 * Known values are matched case-insensitively (platforms also by slug); unknown ones are kept
 * as written, so they match nothing. Category "All" means no restriction.
 */
export function parseFilterList(name: FilterName, raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const known: readonly string[] = FILTERS[name];
  const values: string[] = [];
  for (const part of raw.split(',')) {
    const text = part.trim();
    if (!text) continue;
    if (name === 'category' && text.toLowerCase() === ALL_CATEGORIES.toLowerCase()) return undefined;
    const canonical =
      known.find((value) => value.toLowerCase() === text.toLowerCase()) ??
      (name === 'platform' ? PLATFORM_SLUGS[text.toLowerCase()] : undefined) ??
      text;
    if (!values.includes(canonical)) values.push(canonical);
  }
  return values.length > 0 ? values : undefined;
}

/** All five filters of a list query, canonicalised. */
export function filtersFromQuery(query: Partial<Record<FilterName, string | undefined>>): CatalogFilters {
  const filters: CatalogFilters = {};
  for (const name of FILTER_NAMES) {
    const values = parseFilterList(name, query[name]);
    if (values) filters[name] = values;
  }
  return filters;
}

/** Formats a euro amount held in cents as the number the API answers with. */
export function centsToEuro(cents: number): number {
  return Math.round(cents) / 100;
}
