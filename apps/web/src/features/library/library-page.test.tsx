import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { signIn } from '../../lib/session.ts';
import { AuthDialogProbe, json, resetTestState, restoringSession, testUser } from '../../test/fixtures.tsx';
import { LibraryPage } from './library-page.tsx';

function renderLibrary() {
  render(
    <MemoryRouter>
      <LibraryPage />
      <AuthDialogProbe />
    </MemoryRouter>,
  );
}

afterEach(resetTestState);

describe('the library', () => {
  it('welcomes a visitor with what an account gives, and opens sign-up or login', async () => {
    const user = userEvent.setup();
    renderLibrary();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Welcome to your Library');
    const benefits = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(benefits).toEqual(['Instant delivery of keys', 'All your keys in one place', 'Order history', 'Personal notifications']);
    const probe = screen.getByRole('status', { name: 'Open auth dialog' });

    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(probe.textContent).toBe('signup');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(probe.textContent).toBe('login');
  });

  it("shows a signed-in customer's library, empty until something is bought", () => {
    act(() => signIn('token-1', testUser()));
    renderLibrary();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('My Library');
    expect(screen.getByText('Your library is empty')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse Store' }).getAttribute('href')).toBe('/store');
    expect(screen.queryByRole('button', { name: 'Sign In' })).toBeNull();
  });

  it('shows a placeholder, not the welcome, while a stored session is checked', async () => {
    const answer = restoringSession();
    renderLibrary();
    expect(screen.getByText('Loading your library')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create Account' })).toBeNull();

    await answer(json(200, testUser()));
    expect(await screen.findByRole('heading', { name: 'My Library' })).toBeTruthy();
  });
});
