import { useDeferredValue } from 'react';
import { Link } from 'react-router';
import { TOP_SALES_COUNT } from '@keystore/contract/constants';
import { GameCard } from '../../ui/game-card.tsx';
import { useTopSales } from './api.ts';
import styles from './top-sales.module.css';

/** 'Top sales': the ten most popular games as cards, with a link on to the whole catalogue. */
export function TopSales() {
  const { data, isError } = useTopSales();
  // The ten cards are built as a transition, in slices that leave the page responsive, instead of
  // in one long task just as the page has appeared; the skeletons stay until then.
  const games = useDeferredValue(data);
  const isPending = games === undefined;
  return (
    <section className={styles.section} aria-labelledby="top-sales-title">
      <div className={styles.header}>
        <h2 id="top-sales-title" className={styles.title}>Top sales</h2>
        <Link to="/store" className={styles.catalog}>
          Go to catalog
        </Link>
      </div>
      {isError ? (
        // SPEC §7: catalogue loading failures stay quiet; the catalog link above still leads on.
        <p className={styles.note}>Top sales are not available right now.</p>
      ) : (
        <div className={styles.grid} aria-busy={isPending}>
          {isPending
            ? Array.from({ length: TOP_SALES_COUNT }, (_, position) => <CardSkeleton key={position} />)
            : games.map((game) => <GameCard key={game._id} game={game} />)}
          {isPending && <span className={styles.hidden} role="status">Loading top sales</span>}
        </div>
      )}
    </section>
  );
}

/** A grey card the size of a GameCard, so the grid does not move when the games arrive. */
function CardSkeleton() {
  return (
    <div className={styles.skeleton} aria-hidden="true">
      <div className={styles.cover} />
      <div className={styles.meta} />
      <div className={styles.price} />
      <div className={styles.titleLines}>
        <div className={styles.line} />
        <div className={styles.line} />
        <div className={styles.line} style={{ width: '60%' }} />
      </div>
      <div className={styles.actions}>
        <div className={styles.button} />
      </div>
    </div>
  );
}
