import { queryOptions, useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { QuickSearchHit } from '@keystore/contract';
import { MAX_SEARCH_LENGTH } from '@keystore/contract/constants';
import { apiGet } from '../../lib/api.ts';
import { useDebounced } from '../../lib/use-debounced.ts';
import { SearchIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import styles from './search-box.module.css';

/** Typing pauses this long before the quick search asks the server (SPEC §9). */
const SEARCH_DEBOUNCE_MS = 300;

/** The header's hits for a text (GET /api/games/quick-search); the same text within a minute is not asked again. */
function quickSearchQuery(query: string) {
  return queryOptions({
    queryKey: ['quick-search', query],
    queryFn: ({ signal }) => apiGet<QuickSearchHit[]>(`/api/games/quick-search?query=${encodeURIComponent(query)}`, { signal }),
    staleTime: 60_000,
  });
}

/**
 * The header search: hits appear as you type (asked 300 ms after typing stops), arrow keys move
 * through them, Enter opens the highlighted game or the store's results for the text.
 */
export function SearchBox({ autoFocus = false, onDone }: { autoFocus?: boolean; onDone?: () => void }) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const navigate = useNavigate();
  const listId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  // Closing on blur waits a moment so a click on a hit lands first; focusing again cancels it.
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const query = useDebounced(text.trim(), SEARCH_DEBOUNCE_MS);
  const typing = text.trim() !== query;
  const hits = useQuery({ ...quickSearchQuery(query), enabled: query.length > 0 });
  const results = query && !typing ? (hits.data ?? []) : [];
  const loading = text.trim().length > 0 && (typing || hits.isFetching);
  const showList = open && text.trim().length > 0;

  const finish = (to: string) => {
    setOpen(false);
    setActive(-1);
    inputRef.current?.blur();
    onDone?.();
    void navigate(to);
  };

  return (
    <div className={styles.box}>
      <form
        role="search"
        className={styles.form}
        onSubmit={(event) => {
          event.preventDefault();
          const hit = results[active];
          if (hit) finish(`/game/${hit._id}`);
          else if (text.trim()) finish(`/store?search=${encodeURIComponent(text.trim())}`);
        }}
      >
        <SearchIcon />
        <input
          ref={inputRef}
          className={styles.input}
          type="search"
          role="combobox"
          aria-label="Search games"
          aria-expanded={showList}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
          placeholder="Search games"
          maxLength={MAX_SEARCH_LENGTH}
          value={text}
          autoFocus={autoFocus}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => {
            clearTimeout(closeTimer.current);
            setOpen(true);
          }}
          onBlur={() => {
            closeTimer.current = setTimeout(() => setOpen(false), 150);
          }}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown') {
              event.preventDefault();
              setOpen(true);
              setActive((index) => Math.min(index + 1, results.length - 1));
            } else if (event.key === 'ArrowUp') {
              event.preventDefault();
              setActive((index) => Math.max(index - 1, -1));
            } else if (event.key === 'Escape') {
              setOpen(false);
              onDone?.();
            }
          }}
        />
        {loading && <Spinner label="Searching" />}
      </form>
      {showList && (
        <ul id={listId} role="listbox" aria-label="Search suggestions" className={styles.list}>
          {loading && results.length === 0 ? (
            <li className={styles.note} role="presentation">
              <Spinner label="Searching" />
            </li>
          ) : results.length === 0 ? (
            <li className={styles.note} role="presentation">
              Not found :(
            </li>
          ) : (
            results.map((hit, index) => (
              <li
                key={hit._id}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === active}
                className={styles.option}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => finish(`/game/${hit._id}`)}
                onMouseEnter={() => setActive(index)}
              >
                <span className={styles.title}>{hit.title}</span>
                <span className={styles.platform}>{hit.platform}</span>
              </li>
            ))
          )}
        </ul>
      )}
    </div>
  );
}
