import { createBrowserRouter, Navigate } from 'react-router';
import { Layout } from './layout.tsx';

/** Routes, each page loaded on demand (route-level code splitting). */
export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { index: true, element: <Navigate to="/store" replace /> },
      { path: 'store', lazy: async () => ({ Component: (await import('../features/store/store-page.tsx')).StorePage }) },
    ],
  },
]);
