import { createBrowserRouter } from 'react-router';
import { Layout } from './layout.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/** Routes of SPEC §2, each page loaded on demand (route-level code splitting). */
export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { index: true, lazy: async () => ({ Component: (await import('../features/home/home-page.tsx')).HomePage }) },
      { path: 'store', lazy: async () => ({ Component: (await import('../features/store/store-page.tsx')).StorePage }) },
      { path: 'game/:id', lazy: async () => ({ Component: (await import('../features/game/game-page.tsx')).GamePage }) },
      { path: 'cart', lazy: async () => ({ Component: (await import('../features/cart/cart-page.tsx')).CartPage }) },
      { path: 'terms', lazy: async () => ({ Component: (await import('../features/legal/terms-page.tsx')).TermsPage }) },
      { path: 'cookie-policy', lazy: async () => ({ Component: (await import('../features/legal/cookie-policy-page.tsx')).CookiePolicyPage }) },
      { path: 'privacy-policy', lazy: async () => ({ Component: (await import('../features/legal/privacy-policy-page.tsx')).PrivacyPolicyPage }) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
