import { useId } from 'react';
import type { FacetEntry } from '@keystore/contract';
import styles from './filters.module.css';

interface FilterGroupProps {
  label: string;
  /** The values to offer with their counts; a count is absent until the first answer arrives. */
  options: ReadonlyArray<{ value: string; count?: number }>;
  selected: readonly string[];
  onChange: (values: string[]) => void;
}

/** One filter: a checkbox per value with its result count, and a Reset that clears this filter only. */
export function FilterGroup({ label, options, selected, onChange }: FilterGroupProps) {
  const id = useId();
  const toggle = (value: string, checked: boolean) =>
    onChange(checked ? [...selected, value] : selected.filter((other) => other !== value));

  return (
    <div className={styles.group} role="group" aria-labelledby={`${id}-title`}>
      <div className={styles.groupHead}>
        <h2 id={`${id}-title`} className={styles.groupTitle}>
          {label}
        </h2>
        <button
          type="button"
          className={styles.reset}
          aria-label={`Reset ${label}`}
          disabled={selected.length === 0}
          onClick={() => onChange([])}
        >
          Reset
        </button>
      </div>
      <ul className={styles.options}>
        {options.map(({ value, count }, index) => (
          <li key={value}>
            <label className={styles.option}>
              <input
                type="checkbox"
                className={styles.checkbox}
                checked={selected.includes(value)}
                onChange={(event) => toggle(value, event.target.checked)}
                // The name is the value alone; the count is read as its description.
                aria-label={value}
                aria-describedby={count === undefined ? undefined : `${id}-${index}`}
              />
              <span className={styles.value}>{value}</span>
              <span id={`${id}-${index}`} className={count === 0 ? `${styles.count} ${styles.none}` : styles.count}>
                {count === undefined ? '' : count}
              </span>
            </label>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The options of a filter: the facet's values and counts, plus any selected value the facet does not list. */
export function filterOptions(facet: readonly FacetEntry[] | undefined, known: readonly string[], selected: readonly string[]) {
  const options: Array<{ value: string; count?: number }> = facet ? [...facet] : known.map((value) => ({ value }));
  for (const value of selected) if (!options.some((option) => option.value === value)) options.push({ value, count: facet ? 0 : undefined });
  return options;
}
