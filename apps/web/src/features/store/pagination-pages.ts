/** Up to this many pages every number shows; beyond it the list collapses around the current page (SPEC §9). */
export const PAGINATION_COLLAPSE_ABOVE = 5;

/** A numbered page, or a gap shown as an ellipsis. */
export type PageListEntry = number | 'gap';

/**
 * The numbered pages to show for `current` of `pageCount` (SPEC §2: numbered pages with ellipsis, collapsed
 * when there are more than 5). Collapsed, it keeps the first and last page and the neighbours of the
 * current one: 1 … 4 5 6 … 17. Near either end it shows four pages there (1 2 3 4 … 17) so the list
 * does not jump in length, and a gap of a single page shows that page instead of an ellipsis.
 */
export function pageList(current: number, pageCount: number): PageListEntry[] {
  if (pageCount < 1) return [];
  const page = Math.min(Math.max(1, Math.trunc(current) || 1), pageCount);
  if (pageCount <= PAGINATION_COLLAPSE_ABOVE) return Array.from({ length: pageCount }, (_, index) => index + 1);

  const shown = new Set([1, pageCount, page - 1, page, page + 1]);
  if (page <= 3) for (let next = 2; next <= 4; next += 1) shown.add(next);
  if (page >= pageCount - 2) for (let next = pageCount - 3; next < pageCount; next += 1) shown.add(next);

  const pages = [...shown].filter((value) => value >= 1 && value <= pageCount).sort((a, b) => a - b);
  const entries: PageListEntry[] = [];
  for (const value of pages) {
    const previous = entries.at(-1);
    if (typeof previous === 'number' && value - previous === 2) entries.push(previous + 1);
    else if (typeof previous === 'number' && value - previous > 2) entries.push('gap');
    entries.push(value);
  }
  return entries;
}

/** How many pages a list of `total` items fills at `pageSize` per page (at least 1). */
export function pageCountOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
