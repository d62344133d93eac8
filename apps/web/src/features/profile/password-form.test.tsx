import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messageSchema } from '@keystore/contract';
import { signIn } from '../../lib/session.ts';
import { answer, testUser } from '../../test/contract-fixtures.ts';
import { json, resetTestState } from '../../test/fixtures.tsx';
import { renderProfile, stubProfileApi } from './profile-fixtures.tsx';

async function passwordForm() {
  const user = userEvent.setup();
  renderProfile();
  const form = within(await screen.findByRole('region', { name: 'Change your password' }));
  const field = (label: string) => form.getByLabelText(label) as HTMLInputElement;
  const fill = async (current: string, next: string, confirm: string) => {
    const values: Array<[string, string]> = [['Current password', current], ['New password', next], ['Confirm new password', confirm]];
    for (const [label, value] of values) {
      await user.clear(field(label));
      // Pasted rather than typed key by key: the rules are what is under test, and typing is slow.
      if (value) await user.paste(value);
    }
    await user.click(form.getByRole('button', { name: 'Update password' }));
  };
  /** The message shown under a field, read the way a screen reader gets it. */
  const problemOf = (label: string) => {
    const id = field(label).getAttribute('aria-describedby');
    return id ? document.getElementById(id)!.textContent : null;
  };
  return { user, form, field, fill, problemOf };
}

beforeEach(() => {
  act(() => signIn('token-1', testUser()));
});

afterEach(resetTestState);

describe('changing the password', () => {
  it('checks the three fields with the messages of the change-password rules', async () => {
    const calls = stubProfileApi();
    const { fill, problemOf } = await passwordForm();

    await fill('', '', '');
    expect(problemOf('Current password')).toBe('Current password is required');
    expect(problemOf('New password')).toBe('New password is required');

    await fill('Old-secret1', 'Ab1', 'Ab1');
    expect(problemOf('Current password')).toBeNull();
    expect(problemOf('New password')).toBe('New password must be at least 6 characters long');

    await fill('Old-secret1', 'lowercase1', 'lowercase1');
    expect(problemOf('New password')).toBe('New password must contain at least one uppercase letter');

    await fill('Old-secret1', 'fifteen chars!!', 'fifteen chars!!');
    expect(problemOf('New password')).toBe('New password must contain at least one uppercase letter');

    await fill('Old-secret1', 'Upper-case1', 'Upper-case2');
    expect(problemOf('New password')).toBeNull();
    expect(problemOf('Confirm new password')).toBe('Passwords do not match');
    expect(calls.some((call) => call.route.startsWith('PUT '))).toBe(false);
  });

  it('shows and hides each password with a pressed toggle', async () => {
    stubProfileApi();
    const { user, form, field } = await passwordForm();
    const toggle = form.getByRole('button', { name: 'Show new password' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    expect(field('New password').type).toBe('password');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(field('New password').type).toBe('text');
    expect(field('Current password').type).toBe('password');
    expect(form.getByRole('button', { name: 'Show current password' })).toBeTruthy();
    expect(form.getByRole('button', { name: 'Show confirm new password' })).toBeTruthy();
  });

  it('sends the current and new password, toasts the success and empties the form', async () => {
    let sent: unknown;
    stubProfileApi({
      'PUT /api/users/password': ({ body }) => {
        sent = body;
        return answer(messageSchema, { message: 'Password updated successfully!' });
      },
    });
    const { fill, field } = await passwordForm();
    await fill('Old-secret1', 'New-secret2', 'New-secret2');
    const toasts = screen.getByRole('region', { name: 'Messages' });
    expect(await within(toasts).findByText('Password updated successfully!')).toBeTruthy();
    expect(sent).toEqual({ currentPassword: 'Old-secret1', newPassword: 'New-secret2' });
    expect(field('Current password').value).toBe('');
    expect(field('New password').value).toBe('');
    expect(field('Confirm new password').value).toBe('');
  });

  it('takes a long passphrase without an uppercase letter (decision 017)', async () => {
    let sent: unknown;
    stubProfileApi({
      'PUT /api/users/password': ({ body }) => {
        sent = body;
        return answer(messageSchema, { message: 'Password updated successfully!' });
      },
    });
    const { fill } = await passwordForm();
    await fill('Old-secret1', 'correct horse battery staple', 'correct horse battery staple');
    const toasts = screen.getByRole('region', { name: 'Messages' });
    expect(await within(toasts).findByText('Password updated successfully!')).toBeTruthy();
    expect(sent).toEqual({ currentPassword: 'Old-secret1', newPassword: 'correct horse battery staple' });
  });

  it('shows a password the server finds too common under the new password', async () => {
    stubProfileApi({ 'PUT /api/users/password': () => json(400, { error: 'This password is too common. Please choose another one.' }) });
    const { form, fill, problemOf } = await passwordForm();
    await fill('Old-secret1', 'Password1', 'Password1');
    expect(await form.findByText('This password is too common. Please choose another one.')).toBeTruthy();
    expect(problemOf('New password')).toBe('This password is too common. Please choose another one.');
    expect(form.getByRole('alert').textContent).toBe('');
  });

  it('shows the server message when it refuses, else the fallback', async () => {
    stubProfileApi({ 'PUT /api/users/password': () => json(400, { error: 'Current password is incorrect' }) });
    const { form, fill } = await passwordForm();
    await fill('Wrong-secret1', 'New-secret2', 'New-secret2');
    expect(await form.findByText('Current password is incorrect')).toBeTruthy();
    expect(form.getByRole('alert').textContent).toBe('Current password is incorrect');

    stubProfileApi({ 'PUT /api/users/password': () => Promise.reject(new TypeError('Failed to fetch')) });
    await fill('Old-secret1', 'New-secret2', 'New-secret2');
    expect(await form.findByText('Failed to update password. Please try again.')).toBeTruthy();
  });
});
