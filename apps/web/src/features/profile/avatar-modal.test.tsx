import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AVATAR_MAX_BYTES } from '@keystore/contract/constants';
import { signIn } from '../../lib/session.ts';
import { testUser } from '../../test/contract-fixtures.ts';
import { json, resetTestState } from '../../test/fixtures.tsx';
import { renderProfile, stubProfileApi } from './profile-fixtures.tsx';

const png = () => new File([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])], 'me.png', { type: 'image/png' });

async function openPhotoDialog() {
  // The native picker honours `accept`; a person can still pick "All files", so the rule must catch it.
  const user = userEvent.setup({ applyAccept: false });
  renderProfile();
  await user.click(await screen.findByRole('button', { name: 'Edit profile photo' }));
  const dialog = screen.getByRole('dialog', { name: 'Edit profile photo' });
  return { user, dialog, input: within(dialog).getByLabelText('Choose an image') as HTMLInputElement };
}

beforeAll(() => {
  // jsdom has no object URLs; the preview only needs a string.
  Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:preview'), revokeObjectURL: vi.fn() });
});

beforeEach(() => {
  act(() => signIn('token-1', testUser()));
});

afterEach(resetTestState);

describe('editing the profile photo', () => {
  it('refuses a file that is not an image, or is over 5 MB, before anything is sent', async () => {
    const calls = stubProfileApi();
    const { user, dialog, input } = await openPhotoDialog();

    await user.upload(input, new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Please upload an image file');
    expect(input.getAttribute('aria-invalid')).toBe('true');

    await user.upload(input, new File([new Uint8Array(AVATAR_MAX_BYTES + 1)], 'huge.png', { type: 'image/png' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('File size should not exceed 5MB');

    await user.click(within(dialog).getByRole('button', { name: 'Upload photo' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('File size should not exceed 5MB');
    expect(calls.filter((call) => call.route.startsWith('PUT '))).toHaveLength(0);
  });

  it.each([
    [413, { error: 'File is too large.' }, 'Failed to upload avatar. File is too large.'],
    [415, { error: 'Unsupported file type.' }, 'Failed to upload avatar. Unsupported file type.'],
    [401, { error: 'Your session has expired. Please log in again.' }, 'Failed to upload avatar. Please log in again.'],
    [400, { error: 'Please choose an image to upload' }, 'Failed to upload avatar. Please choose an image to upload'],
    [502, 'Bad Gateway', 'Failed to upload avatar. Please try again.'],
  ])('explains a %i answer', async (status, body, message) => {
    stubProfileApi({ 'PUT /api/users/profile': () => json(status, body) });
    const { user, dialog, input } = await openPhotoDialog();
    await user.upload(input, png());
    await user.click(within(dialog).getByRole('button', { name: 'Upload photo' }));
    expect(await within(dialog).findByText(message)).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Edit profile photo' })).toBe(dialog);
  });

  it('says to try again when the server cannot be reached', async () => {
    stubProfileApi({ 'PUT /api/users/profile': () => Promise.reject(new TypeError('Failed to fetch')) });
    const { user, dialog, input } = await openPhotoDialog();
    await user.upload(input, png());
    await user.click(within(dialog).getByRole('button', { name: 'Upload photo' }));
    expect(await within(dialog).findByText('Failed to upload avatar. Please try again.')).toBeTruthy();
  });

  it('previews the chosen image, uploads it as the avatar field and shows the new photo', async () => {
    const sent: { avatar?: FormDataEntryValue | null } = {};
    stubProfileApi({
      'PUT /api/users/profile': ({ body }) => {
        sent.avatar = (body as FormData).get('avatar');
        return json(200, testUser({ avatar: '/media/avatars/u1-new.webp' }));
      },
    });
    const { user, dialog, input } = await openPhotoDialog();
    expect(within(dialog).queryByRole('img')).toBeNull();

    const file = png();
    await user.upload(input, file);
    expect(within(dialog).getByRole('img', { name: 'Preview of the chosen photo' }).getAttribute('src')).toBe('blob:preview');
    expect(within(dialog).getByText('me.png')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Upload photo' }));
    expect(await screen.findByText('Profile photo updated!')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    // The file as it reached the server: the same name, type and bytes.
    const received = sent.avatar;
    if (!(received instanceof File)) throw new Error('No file was sent as the avatar field');
    expect([received.name, received.type]).toEqual([file.name, file.type]);
    expect(new Uint8Array(await received.arrayBuffer())).toEqual(new Uint8Array(await file.arrayBuffer()));
    expect(screen.getByRole('img', { name: 'Profile photo' }).getAttribute('src')).toBe('/media/avatars/u1-new.webp');
  });

  it('closes with Escape and gives focus back to the button that opened it', async () => {
    stubProfileApi();
    const { user } = await openPhotoDialog();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit profile photo' }));
  });
});
