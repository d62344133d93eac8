import styles from './metrics.module.css';

const METRICS = [
  { value: '69 000+', label: 'titles' },
  { value: '150+', label: 'countries' },
  { value: '100%', label: 'guaranteed delivery' },
  { value: '24/7', label: 'support' },
] as const;

/** The store in four figures (static, SPEC §2 Home). */
export function Metrics() {
  return (
    <section aria-labelledby="metrics-title" className={styles.section}>
      <h2 id="metrics-title" className={styles.hidden}>
        Keystore in numbers
      </h2>
      <ul className={styles.list}>
        {METRICS.map((metric) => (
          <li key={metric.label} className={styles.item}>
            <strong className={styles.value}>{metric.value}</strong>
            <span className={styles.label}>{metric.label}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
