import { Link } from 'react-router';
import { useSession } from '../../lib/session.ts';
import { AiNewsSection } from './ai-news-section.tsx';
import { ManualNewsForm } from './manual-news-form.tsx';
import styles from './admin-news.module.css';

/**
 * The admin news screen (SPEC §2 Admin news): the manual form and the AI section. Only admins see it
 * (DESIGN §5); the server refuses everyone else's calls anyway.
 */
export function AdminNewsPage() {
  const { status, user } = useSession();
  if (status === 'restoring') {
    return (
      <section className={styles.page} aria-busy="true">
        <span className="visually-hidden" role="status">
          Loading
        </span>
      </section>
    );
  }
  if (user?.role !== 'admin') {
    return (
      <section className={styles.page} aria-labelledby="admin-denied">
        <h1 id="admin-denied" className={styles.title}>
          Admins only
        </h1>
        <p className={styles.muted}>This page is for the store’s administrators.</p>
        <Link to="/news" className={styles.link}>
          Back to news
        </Link>
      </section>
    );
  }
  return (
    <section className={styles.page} aria-labelledby="admin-news-title">
      <h1 id="admin-news-title" className={styles.title}>
        Admin news
      </h1>
      <div className={styles.columns}>
        <ManualNewsForm />
        <AiNewsSection />
      </div>
    </section>
  );
}
