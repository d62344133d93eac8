import { Link } from 'react-router';
import type { Game } from '@keystore/contract';
import { DEFAULT_GENRE, storeFilterLink } from './game-info.ts';
import styles from './breadcrumbs.module.css';

/** Main › Games › platform › genre › title, each step but the last a link into the store. */
export function Breadcrumbs({ game }: { game: Pick<Game, 'title' | 'platform' | 'genre'> }) {
  const genre = game.genre[0] ?? DEFAULT_GENRE;
  const steps = [
    { label: 'Main', to: '/' },
    { label: 'Games', to: '/store' },
    { label: game.platform, to: storeFilterLink('platform', game.platform) },
    { label: genre, to: storeFilterLink('genre', genre) },
  ];
  return (
    <nav aria-label="Breadcrumb" className={styles.nav}>
      <ol className={styles.list}>
        {steps.map((step) => (
          <li key={step.label} className={styles.item}>
            <Link to={step.to} className={styles.link}>
              {step.label}
            </Link>
          </li>
        ))}
        <li className={styles.item}>
          <span aria-current="page" className={styles.current}>
            {game.title}
          </span>
        </li>
      </ol>
    </nav>
  );
}
