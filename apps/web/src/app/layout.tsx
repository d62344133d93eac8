import { Outlet } from 'react-router';
import { AuthDialogHost } from '../features/auth/auth-dialog-host.tsx';
import { CookieConsent } from '../features/cookies/cookie-consent.tsx';
import { Toasts } from '../ui/toasts.tsx';
import { Footer } from './footer.tsx';
import { Header } from './header/header.tsx';
import { BottomBar, Sidebar } from './navigation.tsx';
import { PageErrorBoundary } from './page-error-boundary.tsx';
import { useDisplayMode } from './use-display-mode.ts';
import { useScrollRestoration } from './use-scroll-restoration.ts';
import styles from './layout.module.css';

/** The frame of every page: header, sidebar or bottom bar, footer, the cookie consent, the auth dialogs and the toasts. */
export function Layout() {
  useDisplayMode();
  useScrollRestoration();
  return (
    <div className={styles.shell}>
      <a href="#main" className={styles.skip}>
        Skip to content
      </a>
      <Header />
      <div className={styles.body}>
        <Sidebar />
        <div className={styles.column}>
          <main id="main" className={styles.main} tabIndex={-1}>
            <PageErrorBoundary>
              <Outlet />
            </PageErrorBoundary>
          </main>
          <Footer />
        </div>
      </div>
      <BottomBar />
      <CookieConsent />
      <AuthDialogHost />
      <Toasts />
    </div>
  );
}
