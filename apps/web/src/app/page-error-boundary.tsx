import type { ReactNode } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { Link, useLocation } from 'react-router';
import type { ClientErrorReport } from '@keystore/contract';
import styles from './page-error-boundary.module.css';

/**
 * Keeps a page that fails to render (or whose code cannot be loaded, as after a new release) from
 * blanking the store: the frame stays, the page says so with a way back, and the failure is
 * reported to the server's log. Moving to another page clears it.
 */
export function PageErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary FallbackComponent={PageFailed} onError={report} resetKeys={[pathname]}>
      {children}
    </ErrorBoundary>
  );
}

function PageFailed() {
  return (
    <section className={styles.page} role="alert" aria-labelledby="page-failed-title">
      <h1 id="page-failed-title" className={styles.title}>
        Something went wrong
      </h1>
      <p className={styles.text}>This page could not be shown. We have been told; reloading it usually helps.</p>
      <div className={styles.actions}>
        <button type="button" className={styles.primary} onClick={() => window.location.reload()}>
          Reload the page
        </button>
        <Link to="/" className={styles.secondary}>
          Go to the home page
        </Link>
      </div>
    </section>
  );
}

/** Tells the server (POST /api/client-errors); the path only, since a query may carry a code or a token. */
function report(error: unknown): void {
  const failure = error instanceof Error ? error : new Error(String(error));
  const body: ClientErrorReport = { message: failure.message.slice(0, 1000), stack: failure.stack?.slice(0, 8000), path: window.location.pathname.slice(0, 500) };
  void fetch('/api/client-errors', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), keepalive: true }).catch(
    () => undefined,
  );
}
