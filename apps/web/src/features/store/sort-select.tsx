import { SORT_LABELS, SORTS, type Sort } from '@keystore/contract/constants';
import styles from './store-page.module.css';

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
