import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messageSchema } from '@keystore/contract';
import { currentSession, signIn } from '../../lib/session.ts';
import { STORAGE_KEYS } from '../../lib/storage-keys.ts';
import { answer, testUser } from '../../test/contract-fixtures.ts';
import { json, openAuthDialogView, resetTestState } from '../../test/fixtures.tsx';
import { renderProfile, stubProfileApi } from './profile-fixtures.tsx';

async function openDeletion() {
  const user = userEvent.setup();
  renderProfile();
  await user.click(await screen.findByRole('button', { name: 'Delete your account' }));
  const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
  return { user, dialog };
}

async function confirmDeletion() {
  const { user, dialog } = await openDeletion();
  await user.type(within(dialog).getByLabelText('Your password'), 'Secret123');
  await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
  return { user, dialog };
}

beforeEach(() => {
  act(() => signIn('token-1', testUser()));
});

afterEach(resetTestState);

describe('deleting the account', () => {
  it('asks first, and Cancel keeps everything', async () => {
    const calls = stubProfileApi();
    const user = userEvent.setup();
    renderProfile();
    await user.click(await screen.findByRole('button', { name: 'Delete your account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.some((call) => call.route.startsWith('DELETE '))).toBe(false);
    expect(currentSession().status).toBe('signed-in');
  });

  it('signs out, forgets the token and goes home once the server has deleted it', async () => {
    const calls = stubProfileApi({ 'DELETE /api/users/profile': () => answer(messageSchema, { message: 'Your account has been deleted.' }) });
    await confirmDeletion();
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeTruthy();
    expect(screen.getByText('Your account has been deleted.')).toBeTruthy();
    expect(currentSession().status).toBe('signed-out');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(openAuthDialogView()).toBe('none');
    const deletion = calls.find((call) => call.route === 'DELETE /api/users/profile');
    expect(deletion?.authorization).toBe('Bearer token-1');
    expect(deletion?.body).toEqual({ currentPassword: 'Secret123' });
  });

  it('asks for the password before it calls the server, with a show/hide toggle', async () => {
    const calls = stubProfileApi();
    const { user, dialog } = await openDeletion();
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    expect(await within(dialog).findByText('Current password is required')).toBeTruthy();
    expect(calls.some((call) => call.route.startsWith('DELETE '))).toBe(false);

    const field = within(dialog).getByLabelText('Your password');
    expect(field.getAttribute('type')).toBe('password');
    const toggle = within(dialog).getByRole('button', { name: 'Show your password' });
    await user.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(field.getAttribute('type')).toBe('text');
  });

  it('keeps the account and shows the server’s words for a wrong password', async () => {
    stubProfileApi({ 'DELETE /api/users/profile': () => json(400, { error: 'Current password is incorrect' }) });
    const { dialog } = await confirmDeletion();
    expect(await within(dialog).findByText('Current password is incorrect')).toBeTruthy();
    expect(currentSession().status).toBe('signed-in');
  });

  it.each([
    ['the server error', () => json(500, { error: 'Could not delete the account right now' }), 'Could not delete the account right now'],
    ['a fallback when the server says nothing', () => new Response('', { status: 502 }), 'Failed to delete account.'],
    ['another fallback when the server cannot be reached', () => Promise.reject(new TypeError('Failed to fetch')), 'Error deleting account. Please try again.'],
  ])('keeps the account and shows %s', async (_case, answer, message) => {
    stubProfileApi({ 'DELETE /api/users/profile': answer });
    const { dialog } = await confirmDeletion();
    expect(await within(dialog).findByText(message)).toBeTruthy();
    expect(currentSession().status).toBe('signed-in');
    expect(screen.queryByRole('heading', { name: 'Home' })).toBeNull();
  });
});
