import { useQuery } from '@tanstack/react-query';
import type { GameListItem } from '@keystore/contract';
import { apiGet } from '../lib/api.ts';
import { GameCard } from './game-card.tsx';
import styles from './related-row.module.css';

/**
 * "You may also like" (issue 31): games bought together with `gameId`, filled up with its genre and
 * platform. Loaded after the page (a chunk of its own), in a row whose height is kept from the start.
 */
export default function RelatedRow({ gameId }: { gameId: string }) {
  const related = useQuery({
    queryKey: ['game', gameId, 'related'],
    queryFn: ({ signal }) => apiGet<GameListItem[]>(`/api/games/${encodeURIComponent(gameId)}/related`, { signal }),
  });
  if (related.data?.length === 0) return null;
  return (
    <section className={styles.row} aria-labelledby={`related-${gameId}`}>
      <h2 id={`related-${gameId}`} className={styles.heading}>
        You may also like
      </h2>
      <ul className={styles.list} aria-busy={related.isPending}>
        {related.data?.map((game) => (
          <li key={game._id}>
            <GameCard game={game} />
          </li>
        ))}
      </ul>
    </section>
  );
}
