import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { linkVerificationSchema } from '@keystore/contract';
import { useAuthDialog } from '../../lib/auth-dialog.ts';
import { answer } from '../../test/contract-fixtures.ts';
import { json, networkError, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { typist } from './auth-test-kit.tsx';
import { ConfirmEmailPage } from './confirm-email-page.tsx';

function OpenDialog() {
  const { view, email } = useAuthDialog();
  return <p>{view ? `${view} dialog for ${email}` : 'no dialog'}</p>;
}

function renderPage(url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <StrictMode>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/confirm-email" element={<ConfirmEmailPage />} />
            <Route path="/" element={<h1>Home</h1>} />
          </Routes>
          <OpenDialog />
        </MemoryRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
}

describe('the e-mail confirmation page', () => {
  afterEach(resetTestState);

  it('verifies the link once, then Sign in goes home and opens the login', async () => {
    const calls = stubApi({ 'POST /api/auth/verify-email-from-link': () => answer(linkVerificationSchema, { success: true, message: 'Email verified successfully!' }) });
    renderPage('/confirm-email?email=Player%40Example.org&code=123456');
    expect(screen.getByRole('status').textContent).toBe('Verifying your email...');
    expect(await screen.findByRole('heading', { name: 'Email is Verified' })).toBeTruthy();
    expect(calls).toEqual([{ route: 'POST /api/auth/verify-email-from-link', body: { email: 'player@example.org', code: '123456' } }]);
    await typist().click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('heading', { name: 'Home' })).toBeTruthy();
    expect(screen.getByText('login dialog for player@example.org')).toBeTruthy();
  });

  it("shows the server's reason when verification fails, with a way home", async () => {
    stubApi({ 'POST /api/auth/verify-email-from-link': () => json(400, { error: 'This code has expired. Please request a new one.' }) });
    renderPage('/confirm-email?email=player%40example.org&code=123456');
    expect(await screen.findByRole('heading', { name: 'Verification Failed' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('This code has expired. Please request a new one.');
    expect(screen.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
  });

  it('falls back to a general reason when the server says nothing', async () => {
    stubApi({ 'POST /api/auth/verify-email-from-link': networkError });
    renderPage('/confirm-email?email=player%40example.org&code=123456');
    expect(await screen.findByRole('heading', { name: 'Verification Failed' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Verification failed. Please try again or contact support.');
  });

  it('names the missing part of an incomplete link without asking the server', async () => {
    const links = [
      ['/confirm-email?code=123456', 'Invalid verification link. Email not provided.'],
      ['/confirm-email?email=player%40example.org', 'Invalid verification link. Verification code not provided.'],
    ];
    for (const [url, reason] of links) {
      const calls = stubApi({});
      renderPage(url!);
      expect(screen.getByRole('heading', { name: 'Verification Failed' })).toBeTruthy();
      expect(screen.getByRole('alert').textContent).toBe(reason);
      expect(calls).toEqual([]);
      resetTestState();
    }
  });
});
