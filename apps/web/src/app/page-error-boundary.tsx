import { Component, type ReactNode } from 'react';
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
  return <Boundary pathname={pathname}>{children}</Boundary>;
}

interface BoundaryProps {
  pathname: string;
  children: ReactNode;
}

/**
 * A class error boundary as React documents it, instead of react-error-boundary's, which cost every
 * first view 0.4 KB gzip (docs/decisions/027): the failure shows until the path changes.
 */
class Boundary extends Component<BoundaryProps, { failed: boolean; pathname: string }> {
  override state = { failed: false, pathname: this.props.pathname };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { pathname: string }) {
    return props.pathname === state.pathname ? null : { failed: false, pathname: props.pathname };
  }

  override componentDidCatch(error: unknown) {
    report(error);
  }

  override render() {
    return this.state.failed ? <PageFailed /> : this.props.children;
  }
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
