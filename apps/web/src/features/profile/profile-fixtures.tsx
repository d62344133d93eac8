// Test support for the profile's component tests: the page in a router, and the API stubbed with
// the signed-in customer's profile.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { testUser } from '../../test/contract-fixtures.ts';
import { AuthDialogProbe, json, stubApi, type ApiCall, type ApiRoutes } from '../../test/fixtures.tsx';
import { Toasts } from '../../ui/toasts.tsx';
import { ProfilePage } from './profile-page.tsx';

/** The Security section's calls (issue 30): no second factor yet, this one device signed in; and the alert mails' switch. */
export const securityStubs: ApiRoutes = {
  // Not a seller: the Security section shows no API keys.
  'GET /api/seller/api-keys': () => json(404, { error: 'Seller not found' }),
  'GET /api/auth/security': () => json(200, { totp: false, recoveryCodesLeft: 0, passkeys: [], secondFactorRequired: false }),
  'GET /api/auth/sessions': () =>
    json(200, [
      { _id: 'session0000000001', createdAt: '2026-11-01T10:00:00.000Z', lastSeenAt: '2026-11-29T10:00:00.000Z', browser: 'Chrome 130', os: 'Windows 10', place: '198.51.100.x', current: true },
    ]),
  // The wishlist's alert mails (issue 31): on.
  'GET /api/users/alerts': () => json(200, { email: true }),
};

/** Stubs the API (see stubApi); the profile answers `testUser()` unless a route says otherwise. */
export function stubProfileApi(routes: ApiRoutes = {}): ApiCall[] {
  return stubApi({ 'GET /api/users/profile': () => json(200, testUser()), ...securityStubs, ...routes });
}

/** The profile page at /profile, with a home and a /login page to arrive at. */
export function renderProfile() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/profile']}>
        <Routes>
          <Route path="/profile" element={<ProfilePage />} />
          <Route path="/" element={<h1>Home</h1>} />
          <Route path="/login" element={<h1>Login page</h1>} />
        </Routes>
      </MemoryRouter>
      <Toasts />
      <AuthDialogProbe />
    </QueryClientProvider>,
  );
}
