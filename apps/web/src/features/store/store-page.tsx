import { useSearchParams } from 'react-router';
import { STORE_PAGE_SIZE } from '@keystore/contract';
import { GameCard } from '../../ui/game-card.tsx';
import { useGames } from './use-games.ts';
import styles from './store-page.module.css';

/** The catalogue: a grid of 20 games per page from the API, paged through the URL. */
export function StorePage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page') ?? 1) || 1);
  const { data, isPending, isError } = useGames(params);
  const pages = data ? Math.max(1, Math.ceil(data.total / STORE_PAGE_SIZE)) : 1;

  const goTo = (next: number) => {
    const nextParams = new URLSearchParams(params);
    nextParams.set('page', String(next));
    setParams(nextParams);
    window.scrollTo({ top: 0 });
  };

  return (
    <section aria-labelledby="store-title">
      <h1 id="store-title" className={styles.title}>Store</h1>
      {isPending && <p className={styles.note}>Loading…</p>}
      {isError && <p className={styles.note}>Not found :(</p>}
      {data && data.items.length === 0 && <p className={styles.note}>Not found :(</p>}
      {data && data.items.length > 0 && (
        <>
          <p className={styles.count}>{data.total} products</p>
          <div className={styles.grid}>
            {data.items.map((game) => (
              <GameCard key={game._id} game={game} />
            ))}
          </div>
          <nav className={styles.pagination} aria-label="Pagination">
            <button type="button" disabled={page <= 1} onClick={() => goTo(page - 1)}>
              Previous
            </button>
            <span>
              Page {page} of {pages}
            </span>
            <button type="button" disabled={page >= pages} onClick={() => goTo(page + 1)}>
              Next
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
