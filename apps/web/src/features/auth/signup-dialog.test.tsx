import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { availabilitySchema, messageSchema } from '@keystore/contract';
import { answer } from '../../test/contract-fixtures.ts';
import { json, resetTestState, stubApi, type ApiRoutes } from '../../test/fixtures.tsx';
import { findDialog, renderDialog, typist } from './auth-test-kit.tsx';
import { AVAILABILITY_DEBOUNCE_MS } from './use-availability.ts';

const describedText = (field: HTMLElement) => document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent;
const free: ApiRoutes = {
  'POST /api/auth/check-username': () => answer(availabilitySchema, { available: true }),
  'POST /api/auth/check-email': () => answer(availabilitySchema, { available: true }),
};

async function fillIn(values: { username?: string; email?: string; password?: string; confirm?: string; terms?: boolean }) {
  const type = typist();
  const dialog = await findDialog('Sign Up');
  const field = (label: string) => within(dialog).getByLabelText(label);
  if (values.username) await type.type(field('Username'), values.username);
  if (values.email) await type.type(field('Email'), values.email);
  if (values.password) await type.type(field('Password'), values.password);
  if (values.confirm) await type.type(field('Confirm password'), values.confirm);
  if (values.terms) await type.click(within(dialog).getByRole('checkbox', { name: /I accept the Terms & Conditions/ }));
  return { type, dialog, field };
}

/** Lets the availability debounce run out and the answer arrive. */
async function settle() {
  await act(() => vi.advanceTimersByTimeAsync(AVAILABILITY_DEBOUNCE_MS + 50));
}

describe('the sign-up dialog', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(resetTestState);

  it('shows each rule as the user leaves a field, and the terms must be ticked', async () => {
    const calls = stubApi(free);
    renderDialog('signup');
    const { type, dialog, field } = await fillIn({ username: '1st', email: 'player@example', password: 'secret', confirm: 'Secret' });
    await type.tab();
    expect(describedText(field('Username'))).toBe('Username must start with a letter');
    expect(describedText(field('Email'))).toBe('Please enter a valid email address format');
    expect(describedText(field('Password'))).toBe('Password must contain at least one uppercase letter');
    expect(describedText(field('Confirm password'))).toBe('Passwords do not match');
    await type.clear(field('Username'));
    await type.type(field('Username'), 'admin_1');
    expect(describedText(field('Username'))).toBe('Username cannot use the reserved word "admin"');
    await type.click(within(dialog).getByRole('button', { name: 'Sign Up' }));
    expect(dialog.textContent).toContain('You must accept the Terms & Conditions');
    expect(calls.filter((call) => call.route === 'POST /api/auth/register')).toEqual([]);
  });

  it('says when the username or e-mail is taken, once typing pauses', async () => {
    const calls = stubApi({
      'POST /api/auth/check-username': ({ body }) => answer(availabilitySchema, { available: (body as { username: string }).username !== 'keymaster' }),
      'POST /api/auth/check-email': () => answer(availabilitySchema, { available: false }),
    });
    renderDialog('signup');
    const { field } = await fillIn({ username: 'keymaster', email: 'Player@Example.org' });
    await settle();
    await vi.waitFor(() => expect(describedText(field('Username'))).toBe('This username is already taken'));
    await vi.waitFor(() => expect(describedText(field('Email'))).toBe('This email is already registered'));
    // Asked once per settled value, never per keystroke.
    expect(calls.map((call) => call.body)).toEqual([{ username: 'keymaster' }, { email: 'player@example.org' }]);
  });

  it('says when the availability cannot be checked', async () => {
    stubApi({
      'POST /api/auth/check-username': () => json(500, { error: 'Internal Server Error' }),
      'POST /api/auth/check-email': () => json(429, { error: 'Too many attempts. Please try again in 30 seconds.' }),
    });
    renderDialog('signup');
    const { field } = await fillIn({ username: 'newplayer', email: 'player@example.org' });
    await settle();
    await vi.waitFor(() => expect(describedText(field('Username'))).toBe('Error checking username availability. Please try again.'));
    await vi.waitFor(() => expect(describedText(field('Email'))).toBe('Error checking email availability'));
  });

  it('registers and asks for the code sent to the e-mail', async () => {
    const calls = stubApi({ ...free, 'POST /api/auth/register': () => answer(messageSchema, { message: 'Registration successful.' }, 201) });
    renderDialog('signup');
    const { type, dialog } = await fillIn({ username: ' newplayer ', email: 'New@Example.org', password: 'Secret1', confirm: 'Secret1', terms: true });
    await type.click(within(dialog).getByRole('button', { name: 'Sign Up' }));
    const confirm = await findDialog('Confirm your email');
    expect(confirm.textContent).toContain('new@example.org');
    expect(calls.at(-1)).toEqual({ route: 'POST /api/auth/register', body: { username: 'newplayer', email: 'new@example.org', password: 'Secret1' } });
  });

  it('takes a long passphrase without an uppercase letter (decision 017)', async () => {
    const passphrase = 'correct horse battery staple';
    const calls = stubApi({ ...free, 'POST /api/auth/register': () => answer(messageSchema, { message: 'Registration successful.' }, 201) });
    renderDialog('signup');
    const { type, dialog, field } = await fillIn({ username: 'newplayer', email: 'new@example.org', password: passphrase, confirm: passphrase, terms: true });
    expect(describedText(field('Password'))).toBeUndefined();
    await type.click(within(dialog).getByRole('button', { name: 'Sign Up' }));
    await findDialog('Confirm your email');
    expect(calls.at(-1)).toEqual({ route: 'POST /api/auth/register', body: { username: 'newplayer', email: 'new@example.org', password: passphrase } });
  });

  it("shows the server's reason, or a fallback, when registration fails", async () => {
    let reply = json(409, { error: 'This email is already registered' });
    stubApi({ ...free, 'POST /api/auth/register': () => reply });
    renderDialog('signup');
    const { type, dialog } = await fillIn({ username: 'newplayer', email: 'new@example.org', password: 'Secret1', confirm: 'Secret1', terms: true });
    await type.click(within(dialog).getByRole('button', { name: 'Sign Up' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('This email is already registered');
    reply = json(500);
    await type.click(within(dialog).getByRole('button', { name: 'Sign Up' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Registration failed. Please try again.');
    expect(screen.getByRole('link', { name: /Terms & Conditions/ }).getAttribute('href')).toBe('/terms');
  });

  it('shows a password the server finds too common under the password field', async () => {
    stubApi({ ...free, 'POST /api/auth/register': () => json(400, { error: 'This password is too common. Please choose another one.' }) });
    renderDialog('signup');
    const { type, dialog, field } = await fillIn({ username: 'newplayer', email: 'new@example.org', password: 'Password1', confirm: 'Password1', terms: true });
    await type.click(within(dialog).getByRole('button', { name: 'Sign Up' }));
    await vi.waitFor(() => expect(describedText(field('Password'))).toBe('This password is too common. Please choose another one.'));
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });
});
