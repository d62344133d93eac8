import { lazy, Suspense, useEffect } from 'react';
import { useParams } from 'react-router';
import type { Game } from '@keystore/contract';
import { ApiError } from '../../lib/api.ts';
import { Breadcrumbs } from './breadcrumbs.tsx';
import { GameAbout } from './game-about.tsx';
import { GameError } from './game-error.tsx';
import { infoRows } from './game-info.ts';
import { GameSkeleton } from './game-skeleton.tsx';
import { PurchasePanel } from './purchase-panel.tsx';

// The price chart and its library load after the page shows, in a space kept for them (no layout shift).
const PriceHistory = lazy(() => import('./price-history.tsx'));
// The activation guide's component is shared with the library's pages: below the fold, in a chunk of its own.
const RelatedRow = lazy(() => import('../../ui/related-row.tsx'));
const ActivationGuide = lazy(() => import('../../ui/activation-guide.tsx').then((module) => ({ default: module.ActivationGuide })));
import { useGame } from './api.ts';
import styles from './game-layout.module.css';
import { catalogMessages } from '@keystore/contract/catalog-messages';

/** Game detail (SPEC §2, DESIGN §5): breadcrumbs, cover, info rows, real stock, euro price, cart actions and About. */
export function GamePage() {
  const { id = '' } = useParams();
  const { data: game, isPending, error } = useGame(id);
  useGameTitle(game);

  if (isPending) return <GameSkeleton />;
  if (error) return <GameError message={error instanceof ApiError && error.status === 404 ? catalogMessages.gameNotFound : catalogMessages.gameLoadFailed} />;

  return (
    <article className={styles.page}>
      <Breadcrumbs game={game} />
      <div className={styles.top}>
        <img className={styles.cover} src={game.coverImage || game.image} alt={`${game.title} cover`} width={400} height={600} />
        <div className={styles.details}>
          <p className={styles.type}>{game.type}</p>
          <h1 className={styles.title}>{game.title}</h1>
          <dl className={styles.info}>
            {infoRows(game).map((row) => (
              <div key={row.label} className={styles.row}>
                <dt>{row.label}</dt>
                <dd>{row.value}</dd>
              </div>
            ))}
          </dl>
          <PurchasePanel game={game} />
        </div>
      </div>
      <Suspense fallback={<div className={styles.history} />}>
        <PriceHistory game={game} />
      </Suspense>
      <GameAbout game={game} />
      <Suspense fallback={null}>
        <ActivationGuide guide={game.activation} />
      </Suspense>
      <Suspense fallback={<div className={styles.related} />}>
        <RelatedRow gameId={game._id} />
      </Suspense>
    </article>
  );
}

/** "<title> (<platform>) · Keystore" in the tab while the game is shown; the previous title comes back after. */
function useGameTitle(game: Game | undefined) {
  useEffect(() => {
    if (!game) return;
    const previous = document.title;
    document.title = `${game.title} (${game.platform}) · Keystore`;
    return () => {
      document.title = previous;
    };
  }, [game]);
}
