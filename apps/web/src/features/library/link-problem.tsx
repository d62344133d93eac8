import type { ReactNode } from 'react';
import styles from './link-page.module.css';

/**
 * What a page opened by a signed link shows when the link does not open it (forged, expired, cut
 * short) or the page could not be read: its title, the reason as an alert, and the ways on.
 */
export function LinkProblem({ id, title, message, children }: { id: string; title: string; message: string; children: ReactNode }) {
  return (
    <section className={styles.closed} aria-labelledby={id}>
      <title>{`${title} · Keystore`}</title>
      <h1 id={id} className={styles.title}>
        {title}
      </h1>
      <p role="alert">{message}</p>
      <div className={styles.actions}>{children}</div>
    </section>
  );
}
