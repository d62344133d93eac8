import layout from './game-layout.module.css';
import styles from './game-skeleton.module.css';

/** The game page's layout in grey while the game loads. */
export function GameSkeleton() {
  return (
    <div className={layout.page} aria-busy="true">
      <span className={styles.hidden} role="status">
        Loading game details
      </span>
      <div aria-hidden="true">
        <div className={styles.crumbs} />
        <div className={layout.top}>
          <div className={`${layout.cover} ${styles.block}`} />
          <div className={layout.details}>
            <div className={`${styles.block} ${styles.type}`} />
            <div className={`${styles.block} ${styles.title}`} />
            {[0, 1, 2, 3].map((row) => (
              <div key={row} className={`${styles.block} ${styles.row}`} />
            ))}
            <div className={`${styles.block} ${styles.panel}`} />
          </div>
        </div>
        <div className={`${styles.block} ${styles.about}`} />
      </div>
    </div>
  );
}
