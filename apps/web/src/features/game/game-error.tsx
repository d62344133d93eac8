import { useNavigate } from 'react-router';
import styles from './game-error.module.css';

/** The game page when the game cannot be shown: 'Game not found' (404) or 'Failed to load game details'. */
export function GameError({ message }: { message: string }) {
  const navigate = useNavigate();
  return (
    <section className={styles.error} aria-labelledby="game-error-title">
      <h1 id="game-error-title" className={styles.title}>
        Error
      </h1>
      <p className={styles.message}>{message}</p>
      <button type="button" className={styles.back} onClick={() => navigate('/store')}>
        Back to Store
      </button>
    </section>
  );
}
