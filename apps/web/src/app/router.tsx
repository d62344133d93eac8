import { createBrowserRouter } from 'react-router';
import { Layout } from './layout.tsx';
import { NotFoundPage } from './not-found-page.tsx';

const homePage = async () => (await import('../features/home/home-page.tsx')).HomePage;

/** Routes of SPEC §2, each page loaded on demand (route-level code splitting). */
export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { index: true, lazy: async () => ({ Component: await homePage() }) },
      { path: 'store', lazy: async () => ({ Component: (await import('../features/store/store-page.tsx')).StorePage }) },
      { path: 'game/:id', lazy: async () => ({ Component: (await import('../features/game/game-page.tsx')).GamePage }) },
      { path: 'cart', lazy: async () => ({ Component: (await import('../features/cart/cart-page.tsx')).CartPage }) },
      { path: 'pay/:orderId', lazy: async () => ({ Component: (await import('../features/payment/pay-page.tsx')).PayPage }) },
      { path: 'library', lazy: async () => ({ Component: (await import('../features/library/library-page.tsx')).LibraryPage }) },
      { path: 'profile', lazy: async () => ({ Component: (await import('../features/profile/profile-page.tsx')).ProfilePage }) },
      { path: 'confirm-email', lazy: async () => ({ Component: (await import('../features/auth/confirm-email-page.tsx')).ConfirmEmailPage }) },
      // These two open their dialog over the home page (SPEC §2: /reset-password; §4: /login after a 401).
      { path: 'login', lazy: async () => dialogOverHome('login') },
      { path: 'reset-password', lazy: async () => dialogOverHome('reset-password') },
      { path: 'terms', lazy: async () => ({ Component: (await import('../features/legal/terms-page.tsx')).TermsPage }) },
      { path: 'cookie-policy', lazy: async () => ({ Component: (await import('../features/legal/cookie-policy-page.tsx')).CookiePolicyPage }) },
      { path: 'privacy-policy', lazy: async () => ({ Component: (await import('../features/legal/privacy-policy-page.tsx')).PrivacyPolicyPage }) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);

async function dialogOverHome(view: 'login' | 'reset-password') {
  const [HomePage, { DialogRoute }] = await Promise.all([homePage(), import('./dialog-route.tsx')]);
  return {
    Component: () => (
      <DialogRoute view={view}>
        <HomePage />
      </DialogRoute>
    ),
  };
}
