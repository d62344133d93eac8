import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { FILTER_NAMES, STORE_PAGE_SIZE } from '@keystore/contract/constants';
import { FilterDrawer } from './filter-drawer.tsx';
import { FilterPanel } from './filter-panel.tsx';
import { GameGrid } from './game-grid.tsx';
import { Pagination } from './pagination.tsx';
import { pageCountOf } from './pagination-pages.ts';
import { PlatformTabs } from './platform-tabs.tsx';
import { SortSelect } from './sort-select.tsx';
import { useGames } from './api.ts';
import { apiQuery, listKey, parseStoreState, sameFilters, storeSearch, withFilter, withFilters, withPage, withSort, type StoreState } from './url-state.ts';
import styles from './store-page.module.css';

/**
 * The catalogue (SPEC §2 Store): platform tabs, filters with counts, sort, a grid of 20 and numbered
 * pages. All of it lives in the URL query, so links share it and back/forward restore it.
 */
export function StorePage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const state = useMemo(() => parseStoreState(params), [params]);
  const { data, isPending, isPlaceholderData, isError } = useGames(apiQuery(state));
  const [drawerOpen, setDrawerOpen] = useState(false);

  const go = (next: StoreState, replace = false) => void navigate({ pathname: location.pathname, search: storeSearch(next) }, { replace });

  // SPEC §4: the page returns to 1 when the length of the same filtered list changes (a catalogue
  // refresh). Only for the same list: back/forward to another list must restore its page as it was.
  const seen = useRef<{ key: string; total: number } | null>(null);
  useEffect(() => {
    if (!data || isPlaceholderData) return;
    const key = listKey(state);
    const previous = seen.current;
    seen.current = { key, total: data.total };
    const changed = previous !== null && previous.key === key && previous.total !== data.total;
    const pastTheEnd = data.items.length === 0 && data.total > 0;
    if (state.page > 1 && (changed || pastTheEnd)) void navigate({ search: storeSearch(withPage(state, 1)) }, { replace: true });
  }, [data, isPlaceholderData, state, navigate]);

  const loading = isPending || isPlaceholderData;
  const games = data?.items ?? [];
  const total = data?.total ?? 0;
  const activeFilters = FILTER_NAMES.reduce((sum, name) => sum + state.filters[name].length, 0);
  const empty = isError || (!loading && games.length === 0);

  return (
    <section className={styles.page} aria-labelledby="store-title">
      <h1 id="store-title" className={styles.title}>
        {state.search ? `Search results for: "${state.search}"` : 'Store'}
      </h1>
      <PlatformTabs selected={state.filters.platform} onSelect={(platforms) => go(withFilter(state, 'platform', platforms))} />

      <div className={styles.layout}>
        <aside className={styles.sidebar} aria-label="Filters">
          <FilterPanel filters={state.filters} facets={data?.facets} onChange={(filters) => go(withFilters(state, filters))} />
        </aside>

        <div className={styles.results}>
          <div className={styles.toolbar}>
            <p className={styles.count} aria-live="polite">
              {data ? `${total} ${total === 1 ? 'product' : 'products'}` : ''}
            </p>
            <button type="button" className={styles.filtersButton} aria-haspopup="dialog" onClick={() => setDrawerOpen(true)}>
              Filters{activeFilters > 0 ? ` (${activeFilters})` : ''}
            </button>
            <SortSelect value={state.sort} onChange={(sort) => go(withSort(state, sort))} />
          </div>

          {empty ? (
            <p className={styles.note}>Not found :(</p>
          ) : (
            <GameGrid games={games} loading={loading} skeletons={isPending ? STORE_PAGE_SIZE : Math.max(1, games.length)} />
          )}

          {data && !empty && (
            <Pagination page={state.page} pageCount={pageCountOf(total, STORE_PAGE_SIZE)} searchOf={(page) => storeSearch(withPage(state, page))} />
          )}
        </div>
      </div>

      {drawerOpen && (
        <FilterDrawer
          state={state}
          onClose={() => setDrawerOpen(false)}
          onApply={(filters) => {
            setDrawerOpen(false);
            // Applying the same choice must not send the reader back to page 1.
            if (!sameFilters(filters, state.filters)) go(withFilters(state, filters));
          }}
        />
      )}
    </section>
  );
}
