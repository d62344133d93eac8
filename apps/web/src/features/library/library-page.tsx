import { Link } from 'react-router';
import { useSession } from '../../lib/session.ts';
import { LibraryWelcome } from './library-welcome.tsx';
import styles from './library-page.module.css';

/**
 * The library (SPEC §2 Library): a welcome for visitors, 'My Library' for customers. While a stored
 * session is being checked it shows a placeholder of the same size, never the visitor's welcome.
 */
export function LibraryPage() {
  const { status } = useSession();
  if (status === 'restoring') return <LibrarySkeleton />;
  if (status === 'signed-out') return <LibraryWelcome />;
  return <MyLibrary />;
}

/**
 * The customer's purchased games. Purchases arrive with the orders of issue 5 (GET /api/purchases),
 * which adds its query here and lists them above the empty state; until then nothing has been bought.
 */
function MyLibrary() {
  return (
    <section className={styles.page} aria-labelledby="library-title">
      <h1 id="library-title" className={styles.title}>
        My Library
      </h1>
      <div className={styles.empty}>
        <p className={styles.emptyText}>Your library is empty</p>
        <Link to="/store" className={styles.primary}>
          Browse Store
        </Link>
      </div>
    </section>
  );
}

function LibrarySkeleton() {
  return (
    <section className={styles.page} aria-busy="true" aria-label="Library">
      <span className="visually-hidden" role="status">
        Loading your library
      </span>
      <div className={`${styles.bone} ${styles.titleBone}`} />
      <div className={`${styles.bone} ${styles.panelBone}`} />
    </section>
  );
}
