import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAuthDialog } from '../lib/auth-dialog.ts';
import { currentSession, signIn } from '../lib/session.ts';
import { STORAGE_KEYS } from '../lib/storage-keys.ts';
import { testUser } from '../test/contract-fixtures.ts';
import { AuthDialogProbe, openAuthDialogView, resetTestState, restoringSession, stubApi } from '../test/fixtures.tsx';
import { BottomBar, Sidebar } from './navigation.tsx';

function renderNavigation(url = '/') {
  render(
    <MemoryRouter initialEntries={[url]}>
      <Sidebar />
      <BottomBar />
      <AuthDialogProbe />
      <Routes>
        <Route path="/" element={<h1>Home</h1>} />
        <Route path="/profile" element={<h1>Profile page</h1>} />
      </Routes>
    </MemoryRouter>,
  );
  const [sidebar, bottomBar] = screen.getAllByRole('navigation', { name: 'Main' });
  return { sidebar: sidebar!, bottomBar: bottomBar! };
}

describe('the account corner of the navigation', () => {
  afterEach(resetTestState);

  it('offers Login and Sign Up to a visitor, and the bottom bar Profile opens the login', async () => {
    const { sidebar, bottomBar } = renderNavigation();
    await userEvent.click(within(sidebar).getByRole('button', { name: 'Sign Up' }));
    expect(openAuthDialogView()).toBe('signup');
    await userEvent.click(within(sidebar).getByRole('button', { name: 'Login' }));
    expect(openAuthDialogView()).toBe('login');
    closeAuthDialog();
    await userEvent.click(within(bottomBar).getByRole('button', { name: 'Profile' }));
    expect(openAuthDialogView()).toBe('login');
  });

  it('shows the signed-in user, and Log out on the profile ends the session and goes home', async () => {
    const calls = stubApi({ 'POST /api/auth/logout': () => new Response(null, { status: 204 }) });
    signIn('jwt', testUser());
    const { sidebar, bottomBar } = renderNavigation('/profile');
    expect(within(sidebar).getByRole('link', { name: 'keymaster' }).getAttribute('href')).toBe('/profile');
    expect(within(bottomBar).getByRole('link', { name: 'keymaster' }).getAttribute('href')).toBe('/profile');
    expect(within(sidebar).queryByRole('button', { name: 'Login' })).toBeNull();
    await userEvent.click(within(sidebar).getByRole('button', { name: 'Log out' }));
    expect(calls).toEqual([{ route: 'POST /api/auth/logout', authorization: 'Bearer jwt' }]);
    expect(currentSession().status).toBe('signed-out');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(screen.getByRole('heading', { name: 'Home' })).toBeTruthy();
    expect(within(sidebar).getByRole('button', { name: 'Login' })).toBeTruthy();
  });

  it('keeps its place with a placeholder while a stored token is being checked', () => {
    const { sidebar, bottomBar } = renderNavigation();
    // The profile request is never answered here, so the session stays "restoring".
    restoringSession();
    expect(currentSession().status).toBe('restoring');
    expect(within(sidebar).queryByRole('button')).toBeNull();
    expect(within(sidebar).queryByRole('link', { name: 'keymaster' })).toBeNull();
    expect(within(bottomBar).getByRole('link', { name: 'Profile' })).toBeTruthy();
  });
});
