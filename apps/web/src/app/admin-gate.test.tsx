import { act, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { userSchema } from '@keystore/contract';
import { signIn } from '../lib/session.ts';
import { answer, testUser } from '../test/contract-fixtures.ts';
import { renderWithQueries, resetTestState, restoringSession } from '../test/fixtures.tsx';
import { Sidebar } from './navigation.tsx';
import BackOffice from '../pages/admin.tsx';

// The back office's door (issue 15): the admin gets /admin, anyone else the store's 404 page at any
// /admin address, and only the admin sees the way in.

/** The back office's page at every /admin address, as the router mounts it, without the store's frame. */
function renderAt(url: string) {
  renderWithQueries(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/admin/*" element={<BackOffice />} />
      </Routes>
    </MemoryRouter>,
  );
}

afterEach(resetTestState);

describe('the admin gate', () => {
  it('shows a visitor and a customer the 404 page at every /admin address', async () => {
    for (const url of ['/admin', '/admin/orders/o1', '/admin/news', '/admin/nothing-here']) {
      renderAt(url);
      expect(await screen.findByRole('heading', { level: 1, name: 'PAGE NOT FOUND' }), url).toBeTruthy();
      resetTestState();
    }
    act(() => signIn('token', testUser()));
    renderAt('/admin/users');
    expect(await screen.findByRole('heading', { level: 1, name: 'PAGE NOT FOUND' })).toBeTruthy();
  });
});

describe('the back office for the admin', () => {
  const admin = testUser({ _id: 'a1', role: 'admin', username: 'Boss' });

  it('waits for a stored session instead of showing 404, then opens the area with its side nav', async () => {
    const answerProfile = restoringSession();
    renderAt('/admin/news');
    expect(screen.queryByRole('heading', { name: 'PAGE NOT FOUND' })).toBeNull();
    await answerProfile(answer(userSchema, admin));
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin news' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Back office' });
    expect(within(nav).getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Dashboard', '/admin'],
      ['Orders', '/admin/orders'],
      ['Customers', '/admin/users'],
      ['Catalogue', '/admin/catalogue'],
      ['Sellers', '/admin/sellers'],
      ['Payouts', '/admin/payouts'],
      ['Claims', '/admin/claims'],
      ['Risk desk', '/admin/risk'],
      ['Support', '/admin/support'],
      ['Audit log', '/admin/audit'],
      ['News', '/admin/news'],
    ]);
    expect(within(nav).getByRole('link', { name: 'News' }).getAttribute('aria-current')).toBe('page');
  });

  it("gives the admin, and only the admin, a 'Back office' link to /admin in the account corner", () => {
    const renderSidebar = () =>
      renderWithQueries(
        <MemoryRouter>
          <Sidebar />
        </MemoryRouter>,
      );
    act(() => signIn('token', testUser()));
    renderSidebar();
    expect(screen.queryByRole('link', { name: 'Back office' })).toBeNull();
    resetTestState();
    act(() => signIn('token', admin));
    renderSidebar();
    expect(screen.getByRole('link', { name: 'Back office' }).getAttribute('href')).toBe('/admin');
  });
});
