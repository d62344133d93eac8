import { Link } from 'react-router';
import styles from './not-found-page.module.css';

/** Any path the store does not know (the server answers it with status 404 too). */
export function NotFoundPage() {
  return (
    <section className={styles.page} aria-labelledby="not-found-title">
      <p className={styles.code} aria-hidden="true">404</p>
      <h1 id="not-found-title" className={styles.title}>PAGE NOT FOUND</h1>
      <Link to="/store" className={styles.back}>
        Back to store
      </Link>
    </section>
  );
}
