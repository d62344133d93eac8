import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PurchaseHistoryEntry } from '@keystore/contract';
import { closeAuthDialog } from '../../lib/auth-dialog.ts';
import { currentSession, signIn } from '../../lib/session.ts';
import { STORAGE_KEYS } from '../../lib/storage-keys.ts';
import { testHistoryEntry, testUser } from '../../test/contract-fixtures.ts';
import { json, openAuthDialogView, resetTestState, restoringSession } from '../../test/fixtures.tsx';
import { OrderHistory } from './order-history.tsx';
import { renderProfile, securityStubs, stubProfileApi } from './profile-fixtures.tsx';

afterEach(resetTestState);

describe('the profile page', () => {
  it('asks a visitor to sign in and opens the login dialog', async () => {
    stubProfileApi();
    renderProfile();
    expect(screen.getByText('Sign in to see your profile, your orders and your account settings.')).toBeTruthy();
    expect(openAuthDialogView()).toBe('login');
    act(() => closeAuthDialog());
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign In' }));
    expect(openAuthDialogView()).toBe('login');
  });

  it('shows a placeholder, not the visitor prompt, while the stored session is checked', async () => {
    const answer = restoringSession(securityStubs);
    renderProfile();
    expect(screen.getByText('Loading your profile')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign In' })).toBeNull();
    await answer(json(200, testUser()));
    expect(await screen.findByText('keymaster')).toBeTruthy();
    expect(openAuthDialogView()).toBe('none');
  });

  it('shows who is signed in, with the default icon, real figures and the empty order history', async () => {
    act(() => signIn('token-1', testUser()));
    // The page fetches the profile afresh: the figures are the server's, not the ones held since login.
    stubProfileApi({ 'GET /api/users/profile': () => json(200, testUser({ totalGames: 3, totalSpent: 120, membership: 'Bundle Raider' })) });
    renderProfile();
    expect(screen.getByText('keymaster')).toBeTruthy();
    expect(screen.getByText('player@example.org')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
    expect(await screen.findByText('€120.00')).toBeTruthy();
    expect(screen.getByText('Bundle Raider', { selector: 'dd' })).toBeTruthy();
    expect(currentSession().user?.totalGames).toBe(3);
    const orders = screen.getByRole('region', { name: 'Order history' });
    expect(within(orders).getByText('Start your trial right now!')).toBeTruthy();
    expect(within(orders).queryByRole('button', { name: /Details/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Sell on Keystore' }).getAttribute('href')).toBe('/seller');
  });

  it('forgets a token the server refuses and goes to /login', async () => {
    act(() => signIn('revoked-token', testUser()));
    stubProfileApi({ 'GET /api/users/profile': () => json(401, { error: 'Your session has expired. Please log in again.' }) });
    renderProfile();
    expect(await screen.findByRole('heading', { name: 'Login page' })).toBeTruthy();
    expect(currentSession().status).toBe('signed-out');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('logs out from the page (the mobile button): the server ends the session and the user goes home', async () => {
    act(() => signIn('token-1', testUser()));
    const calls = stubProfileApi({ 'POST /api/auth/logout': () => new Response(null, { status: 204 }) });
    renderProfile();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Log out' }));
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
    expect(currentSession().status).toBe('signed-out');
    expect(openAuthDialogView()).toBe('none');
    expect(calls.some((call) => call.route === 'POST /api/auth/logout')).toBe(true);
  });
});

describe('the order history', () => {
  const entry = (id: string, status: string, deliveryStatus: string): PurchaseHistoryEntry =>
    testHistoryEntry({ _id: id, items: `Game ${id}`, image: `/media/covers/${id}.svg`, date: '2026-03-14T10:00:00Z', status, deliveryStatus, currency: 'EUR', amount: 19.5 });

  it('lists each order with its status badge, delivery, amount and a Details button', async () => {
    const onDetails = vi.fn();
    const entries = [entry('a', 'Paid', 'Delivered'), entry('b', 'Awaiting payment', 'Pending'), entry('c', 'Declined', 'Not delivered')];
    render(<OrderHistory entries={entries} onDetails={onDetails} />);
    const rows = screen.getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Game a14 Mar 2026PaidDelivered€19.50Details',
      'Game b14 Mar 2026Awaiting paymentNot delivered€19.50Details',
      'Game c14 Mar 2026DeclinedNot delivered€19.50Details',
    ]);
    const badges = rows.map((row) => within(row).getByText(/^(Paid|Awaiting payment|Declined)$/).className);
    expect(new Set(badges).size).toBe(3);
    await userEvent.setup().click(within(rows[1]!).getByRole('button', { name: /Details/ }));
    expect(onDetails).toHaveBeenCalledWith(entries[1]);
  });
});
