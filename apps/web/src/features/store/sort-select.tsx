import { SORTS, type Sort } from '@keystore/contract/constants';
import styles from './store-page.module.css';

/** The sort menu's entries (SPEC §2, Store). */
const SORT_LABELS: Record<Sort, string> = {
  popularity: 'By popularity',
  'price-asc': 'By price (from low to high)',
  'price-desc': 'By price (from high to low)',
  newest: 'Newest',
};

/** The sort dropdown with the four orders of SPEC §9. */
export function SortSelect({ value, onChange }: { value: Sort; onChange: (sort: Sort) => void }) {
  return (
    <label className={styles.sort}>
      <span className={styles.sortLabel}>Sort by</span>
      <select className={styles.select} value={value} onChange={(event) => onChange(event.target.value as Sort)}>
        {SORTS.map((sort) => (
          <option key={sort} value={sort}>
            {SORT_LABELS[sort]}
          </option>
        ))}
      </select>
    </label>
  );
}
