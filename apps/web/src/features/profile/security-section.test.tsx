import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signIn } from '../../lib/session.ts';
import { testUser } from '../../test/contract-fixtures.ts';
import { json, resetTestState } from '../../test/fixtures.tsx';
import { renderProfile, stubProfileApi } from './profile-fixtures.tsx';

// The profile's Security section (issue 30): the other devices signed out, a seller's API keys with them
// when asked; the password change offers the same.
const devices = [
  { _id: 'session0000000001', createdAt: '2026-11-01T10:00:00.000Z', lastSeenAt: '2026-11-29T10:00:00.000Z', browser: 'Chrome 130', os: 'Windows 10', place: '198.51.100.x', current: true },
  { _id: 'session0000000002', createdAt: '2026-11-02T10:00:00.000Z', lastSeenAt: '2026-11-28T10:00:00.000Z', browser: 'Firefox 128', os: 'Linux', place: '203.0.113.x', current: false },
];
const apiKeys = [{ _id: 'ak1', name: 'Warehouse', createdAt: '2026-11-03T10:00:00.000Z', lastUsedAt: '2026-11-28T09:00:00.000Z' }];

beforeEach(() => {
  act(() => signIn('token-1', testUser()));
});
afterEach(resetTestState);

describe('the Security section', () => {
  it("lists the devices and a seller's API keys, and signs the others out with the keys when asked", async () => {
    const calls = stubProfileApi({
      'GET /api/auth/sessions': () => json(200, devices),
      'GET /api/seller/api-keys': () => json(200, apiKeys),
      'POST /api/auth/sessions/revoke-others': () => json(200, { message: 'Every other device signed out' }),
    });
    const user = userEvent.setup();
    renderProfile();
    const section = within(await screen.findByRole('region', { name: 'Security' }));
    expect((await section.findByRole('list', { name: 'Signed-in devices' })).textContent).toContain('Firefox 128 on Linux');
    expect(section.getByText('This device')).toBeTruthy();
    expect((await section.findByRole('list', { name: 'Seller API keys' })).textContent).toContain('Warehouse');

    await user.click(section.getByRole('button', { name: 'Sign out all other devices' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Sign out all other devices?' }));
    await user.click(dialog.getByLabelText('Also delete my seller API keys (systems that use them stop working)'));
    await user.click(dialog.getByRole('button', { name: 'Sign out others' }));
    expect(await screen.findByText('Every other device signed out')).toBeTruthy();
    expect(calls.find((call) => call.route === 'POST /api/auth/sessions/revoke-others')!.body).toEqual({ revokeApiKeys: true });
  });

  it('offers to delete the API keys with a password change', async () => {
    const calls = stubProfileApi({
      'GET /api/seller/api-keys': () => json(200, apiKeys),
      'PUT /api/users/password': () => json(200, { message: 'Password updated successfully!' }),
    });
    const user = userEvent.setup();
    renderProfile();
    const form = within(await screen.findByRole('region', { name: 'Change your password' }));
    await user.type(form.getByLabelText('Current password'), 'Secret-pass1');
    await user.type(form.getByLabelText('New password'), 'Brand-new-pass2');
    await user.type(form.getByLabelText('Confirm new password'), 'Brand-new-pass2');
    await user.click(await form.findByLabelText('Also delete my seller API keys'));
    await user.click(form.getByRole('button', { name: 'Update password' }));
    await screen.findByText('Password updated successfully!');
    expect(calls.find((call) => call.route === 'PUT /api/users/password')!.body).toEqual({ currentPassword: 'Secret-pass1', newPassword: 'Brand-new-pass2', revokeApiKeys: true });
  });
});
