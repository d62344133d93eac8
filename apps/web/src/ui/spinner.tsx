import styles from './spinner.module.css';

/** A small busy indicator; `label` is read out to screen readers. */
export function Spinner({ label = 'Loading' }: { label?: string }) {
  return <span className={styles.spinner} role="status" aria-label={label} />;
}
