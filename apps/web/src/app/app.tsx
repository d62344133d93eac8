import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { isStoreBusy } from '../lib/api.ts';
import { restoreSession } from '../lib/session.ts';
import { AppRoutes } from './router.tsx';

const queryClient = new QueryClient({
  defaultOptions: {
    // One more try for a failed load, except when the store was busy: the API layer has asked it again already, as it advised.
    queries: { staleTime: 60_000, retry: (failures, error) => failures < 1 && !isStoreBusy(error), refetchOnWindowFocus: false },
  },
});

// A stored token is checked once, as the app starts: the profile request runs while the page renders.
void restoreSession();

/** Providers around the routes: server state through TanStack Query, the address through React Router. */
export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
