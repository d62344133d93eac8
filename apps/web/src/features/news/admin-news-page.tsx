import { AiNewsSection } from './ai-news-section.tsx';
import { ManualNewsForm } from './manual-news-form.tsx';
import styles from './admin-news.module.css';

/**
 * The admin news screen (SPEC §2 Admin news): the manual form and the AI section. Only admins reach
 * it: app/admin-gate.tsx shows anyone else the 404 page, and the server refuses their calls anyway.
 */
export function AdminNewsPage() {
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
