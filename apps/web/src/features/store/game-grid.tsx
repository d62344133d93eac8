import type { GameListItem } from '@keystore/contract';
import { GameCard } from '../../ui/game-card.tsx';
import styles from './store-page.module.css';

/** The result grid, or skeleton cards of the same size while a page loads (no layout shift). */
export function GameGrid({ games, loading, skeletons }: { games: readonly GameListItem[]; loading: boolean; skeletons: number }) {
  if (loading) {
    return (
      <div className={styles.grid} aria-busy="true">
        <span className={styles.srOnly} role="status">
          Loading products
        </span>
        {Array.from({ length: skeletons }, (_, index) => (
          <div key={index} className={styles.skeleton} aria-hidden="true">
            <div className={styles.skeletonImage} />
            <div className={styles.skeletonLine} style={{ width: '45%' }} />
            <div className={styles.skeletonLine} style={{ width: '35%', height: 18 }} />
            <div className={styles.skeletonLine} style={{ width: '80%' }} />
            <div className={styles.skeletonButton} />
          </div>
        ))}
      </div>
    );
  }
  return (
    <div className={styles.grid}>
      {games.map((game) => (
        <GameCard key={game._id} game={game} />
      ))}
    </div>
  );
}
