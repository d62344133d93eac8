import { useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { CloseIcon } from '../../ui/icons.tsx';
import { FilterPanel } from './filter-panel.tsx';
import { useFocusTrap } from '../../ui/use-focus-trap.ts';
import { useGames } from './api.ts';
import { apiQuery, noFilters, withFilters, type StoreFilters, type StoreState } from './url-state.ts';
import styles from './filters.module.css';

interface FilterDrawerProps {
  state: StoreState;
  onApply: (filters: StoreFilters) => void;
  onClose: () => void;
}

/**
 * The narrow-screen filters (SPEC §2): a modal drawer titled 'Set your parameters'. Choices stay a draft
 * until Apply; Escape, the close button or a click outside leave the store as it was.
 */
export function FilterDrawer({ state, onApply, onClose }: FilterDrawerProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const [draft, setDraft] = useState(state.filters);
  // The counts follow the draft, so each checkbox tells what Apply would give.
  const preview = useGames(apiQuery(withFilters(state, draft)));
  useFocusTrap(panel, onClose);

  useEffect(() => {
    // The page behind must not scroll while the drawer is open.
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
    };
  }, []);

  return createPortal(
    <div
      className={styles.backdrop}
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div ref={panel} className={styles.drawer} role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <div className={styles.drawerHead}>
          <h2 id={titleId} className={styles.drawerTitle}>
            Set your parameters
          </h2>
          <button type="button" className={styles.close} aria-label="Close" onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        <div className={styles.drawerBody}>
          <FilterPanel filters={draft} facets={preview.data?.facets} onChange={setDraft} />
        </div>
        <div className={styles.drawerFoot}>
          <button type="button" className={styles.clear} onClick={() => setDraft(noFilters())}>
            Reset all
          </button>
          <p className={styles.preview} aria-live="polite">
            {preview.data && !preview.isPlaceholderData ? `${preview.data.total} matching` : ''}
          </p>
          <button type="button" className={styles.apply} onClick={() => onApply(draft)}>
            Apply
          </button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
