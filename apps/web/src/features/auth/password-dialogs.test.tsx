import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messageSchema } from '@keystore/contract';
import { answer } from '../../test/contract-fixtures.ts';
import { json, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { findDialog, renderDialog, toastTexts, typist } from './auth-test-kit.tsx';

const describedText = (field: HTMLElement) => document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent;
const later = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('the forgot-password dialog', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(resetTestState);

  it('sends the recovery e-mail and closes 2 s later', async () => {
    const calls = stubApi({ 'POST /api/auth/forgot-password': () => answer(messageSchema, { message: '' }) });
    renderDialog('forgot');
    const dialog = await findDialog('Forgot password');
    const type = typist();
    const email = within(dialog).getByLabelText('Email');
    await type.click(within(dialog).getByRole('button', { name: 'Send recovery email' }));
    expect(describedText(email)).toBe('Email is required');
    await type.type(email, 'Player@Example.org{Enter}');
    expect(calls).toEqual([{ route: 'POST /api/auth/forgot-password', body: { email: 'player@example.org' } }]);
    expect(toastTexts()).toEqual(['Recovery email sent. Please check your inbox.']);
    await later(1900);
    expect(screen.getByRole('dialog', { name: 'Forgot password' })).toBeTruthy();
    await later(100);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says when the e-mail could not be sent', async () => {
    stubApi({ 'POST /api/auth/forgot-password': () => json(500, { error: 'Internal Server Error' }) });
    renderDialog('forgot', { email: 'player@example.org' });
    const dialog = await findDialog('Forgot password');
    await typist().click(within(dialog).getByRole('button', { name: 'Send recovery email' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Failed to send recovery email. Please try again.');
  });
});

describe('the reset-password dialog', () => {
  afterEach(resetTestState);

  it('keeps Submit disabled until the password holds the rules and matches', async () => {
    stubApi({});
    renderDialog('reset-password', { email: 'player@example.org', token: 't0k3n' });
    const dialog = await findDialog('Reset password');
    const type = typist();
    const submit = within(dialog).getByRole('button', { name: 'Reset password' }) as HTMLButtonElement;
    const password = within(dialog).getByLabelText('New password');
    const confirm = within(dialog).getByLabelText('Confirm new password');
    expect(submit.disabled).toBe(true);
    await type.type(password, 'secret1');
    expect(describedText(password)).toBe('Password must be at least 6 characters and contain at least one uppercase letter.');
    expect(describedText(confirm)).toBeUndefined();
    await type.clear(password);
    await type.type(password, 'Secret1');
    expect(describedText(password)).toBeUndefined();
    await type.type(confirm, 'Secret2');
    expect(describedText(confirm)).toBe('Passwords do not match.');
    expect(submit.disabled).toBe(true);
    await type.clear(confirm);
    await type.type(confirm, 'Secret1');
    expect(describedText(confirm)).toBeUndefined();
    expect(submit.disabled).toBe(false);
  });

  it('takes a long passphrase without an uppercase letter, and a shorter one still needs it (decision 017)', async () => {
    stubApi({});
    renderDialog('reset-password', { email: 'player@example.org', token: 't0k3n' });
    const dialog = await findDialog('Reset password');
    const type = typist();
    const submit = within(dialog).getByRole('button', { name: 'Reset password' }) as HTMLButtonElement;
    const password = within(dialog).getByLabelText('New password');
    const confirm = within(dialog).getByLabelText('Confirm new password');
    await type.type(password, 'fifteen chars!!');
    expect(describedText(password)).toBe('Password must be at least 6 characters and contain at least one uppercase letter.');
    await type.clear(password);
    await type.type(password, 'correct horse battery staple');
    await type.type(confirm, 'correct horse battery staple');
    expect(describedText(password)).toBeUndefined();
    expect(submit.disabled).toBe(false);
  });

  it("shows the server's reason, or the fallback, when the reset fails", async () => {
    let reply = json(400, { error: 'This password reset link is invalid or has expired.' });
    stubApi({ 'POST /api/auth/reset-password': () => reply });
    renderDialog('reset-password', { email: 'player@example.org', token: 't0k3n' });
    const dialog = await findDialog('Reset password');
    const type = typist();
    await type.type(within(dialog).getByLabelText('New password'), 'Secret1');
    await type.type(within(dialog).getByLabelText('Confirm new password'), 'Secret1{Enter}');
    expect(within(dialog).getByRole('alert').textContent).toBe('This password reset link is invalid or has expired.');
    reply = json(500);
    await type.click(within(dialog).getByRole('button', { name: 'Reset password' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Failed to reset password. Please try again.');
  });

  it('shows a password the server finds too common under the field, and waits for another', async () => {
    stubApi({ 'POST /api/auth/reset-password': () => json(400, { error: 'This password is too common. Please choose another one.' }) });
    renderDialog('reset-password', { email: 'player@example.org', token: 't0k3n' });
    const dialog = await findDialog('Reset password');
    const type = typist();
    const password = within(dialog).getByLabelText('New password');
    await type.type(password, 'Password1');
    await type.type(within(dialog).getByLabelText('Confirm new password'), 'Password1{Enter}');
    await vi.waitFor(() => expect(describedText(password)).toBe('This password is too common. Please choose another one.'));
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect((within(dialog).getByRole('button', { name: 'Reset password' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('changes the password, shows the success screen, and Sign In opens the login', async () => {
    const calls = stubApi({ 'POST /api/auth/reset-password': () => answer(messageSchema, { message: 'Password changed successfully.' }) });
    renderDialog('reset-password', { email: 'player@example.org', token: 't0k3n' });
    const dialog = await findDialog('Reset password');
    const type = typist();
    await type.type(within(dialog).getByLabelText('New password'), 'Secret1');
    await type.type(within(dialog).getByLabelText('Confirm new password'), 'Secret1{Enter}');
    expect(calls).toEqual([{ route: 'POST /api/auth/reset-password', body: { email: 'player@example.org', token: 't0k3n', password: 'Secret1' } }]);
    expect(toastTexts()).toEqual(['Password changed successfully.']);
    const success = await findDialog('Password has changed Successful');
    await type.click(within(success).getByRole('button', { name: 'Sign In' }));
    const login = await findDialog('Login');
    expect((within(login).getByLabelText('Email') as HTMLInputElement).value).toBe('player@example.org');
  });
});
