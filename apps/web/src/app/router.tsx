import { lazy, Suspense, type ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import { Layout } from './layout.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/** A page loaded on demand (route-level code splitting), from the named export `pick` chooses. */
function page<M, P extends object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>) {
  return lazy(async () => ({ default: pick(await load()) }));
}

const HomePage = page(() => import('../features/home/home-page.tsx'), (m) => m.HomePage);
const StorePage = page(() => import('../features/store/store-page.tsx'), (m) => m.StorePage);
const GamePage = page(() => import('../features/game/game-page.tsx'), (m) => m.GamePage);
const CartPage = page(() => import('../features/cart/cart-page.tsx'), (m) => m.CartPage);
const PayPage = page(() => import('../features/payment/pay-page.tsx'), (m) => m.PayPage);
const LibraryPage = page(() => import('../features/library/library-page.tsx'), (m) => m.LibraryPage);
const ProfilePage = page(() => import('../features/profile/profile-page.tsx'), (m) => m.ProfilePage);
const SupportPage = page(() => import('../features/support/support-page.tsx'), (m) => m.SupportPage);
const NewsListPage = page(() => import('../features/news/news-list-page.tsx'), (m) => m.NewsListPage);
const NewsDetailPage = page(() => import('../features/news/news-detail-page.tsx'), (m) => m.NewsDetailPage);
const AdminNewsPage = page(() => import('../features/news/admin-news-page.tsx'), (m) => m.AdminNewsPage);
const ConfirmEmailPage = page(() => import('../features/auth/confirm-email-page.tsx'), (m) => m.ConfirmEmailPage);
const TermsPage = page(() => import('../features/legal/terms-page.tsx'), (m) => m.TermsPage);
const CookiePolicyPage = page(() => import('../features/legal/cookie-policy-page.tsx'), (m) => m.CookiePolicyPage);
const PrivacyPolicyPage = page(() => import('../features/legal/privacy-policy-page.tsx'), (m) => m.PrivacyPolicyPage);
const DialogOverHome = page(() => import('./dialog-route.tsx'), (m) => m.DialogOverHome);

/**
 * Routes of SPEC §2. Declarative routes rather than a data router: the pages fetch their own data
 * through TanStack Query, and leaving the data router out of the bundle saves 18.5 KB gzip of startup
 * JavaScript (docs/decisions/010). The boundary sits above the frame, so the first paint waits for
 * the page's chunk (preloaded with the HTML) instead of showing the frame alone and shifting the
 * footer; later navigations are transitions, which keep the current page until the next one is ready.
 */
export function AppRoutes() {
  return (
    <Suspense fallback={null}>
      <Routes>
        <Route element={<Layout />}>
          <Route index element={<HomePage />} />
          <Route path="store" element={<StorePage />} />
          <Route path="game/:id" element={<GamePage />} />
          <Route path="cart" element={<CartPage />} />
          <Route path="pay/:orderId" element={<PayPage />} />
          <Route path="library" element={<LibraryPage />} />
          <Route path="profile" element={<ProfilePage />} />
          <Route path="support" element={<SupportPage />} />
          <Route path="news" element={<NewsListPage />} />
          <Route path="news/:id" element={<NewsDetailPage />} />
          <Route path="admin/news" element={<AdminNewsPage />} />
          <Route path="confirm-email" element={<ConfirmEmailPage />} />
          {/* These two open their dialog over the home page (SPEC §2: /reset-password; §4: /login after a 401). */}
          <Route path="login" element={<DialogOverHome view="login" />} />
          <Route path="reset-password" element={<DialogOverHome view="reset-password" />} />
          <Route path="terms" element={<TermsPage />} />
          <Route path="cookie-policy" element={<CookiePolicyPage />} />
          <Route path="privacy-policy" element={<PrivacyPolicyPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </Suspense>
  );
}
