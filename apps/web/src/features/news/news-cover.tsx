import styles from './news.module.css';

/** A news cover, or the placeholder when the item has none (SPEC §2). */
export function NewsCover({ src, className, eager = false }: { src: string | null; className?: string; eager?: boolean }) {
  const classes = `${styles.cover} ${className ?? ''}`;
  if (!src) {
    return (
      <div className={`${classes} ${styles.placeholder}`} aria-hidden="true" data-testid="cover-placeholder">
        <span>KEYSTORE NEWS</span>
      </div>
    );
  }
  return <img src={src} alt="" width={1200} height={675} className={classes} loading={eager ? 'eager' : 'lazy'} />;
}
