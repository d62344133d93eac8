import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { loginAnswerSchema, messageSchema } from '@keystore/contract';
import { currentSession } from '../../lib/session.ts';
import { answer, testUser } from '../../test/contract-fixtures.ts';
import { json, networkError, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { findDialog, renderDialog, toastTexts, typist } from './auth-test-kit.tsx';

const describedText = (field: HTMLElement) => document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent;

describe('the login dialog', () => {
  afterEach(resetTestState);

  it('checks the e-mail while typing and on submit', async () => {
    const calls = stubApi({});
    const type = typist();
    renderDialog('login');
    const dialog = await findDialog('Login');
    const email = within(dialog).getByLabelText('Email');
    await type.click(within(dialog).getByRole('button', { name: 'Login' }));
    expect(describedText(email)).toBe('Email is required');
    await type.type(email, 'player');
    expect(describedText(email)).toBe('Email address must contain "@"');
    await type.type(email, '@example');
    expect(describedText(email)).toBe('Please enter a valid email address format');
    await type.type(email, '.zzz');
    expect(describedText(email)).toBe('Please enter an email from a recognized provider');
    await type.clear(email);
    await type.type(email, 'player@example.org');
    expect(email.getAttribute('aria-invalid')).toBeNull();
    expect(calls).toEqual([]);
  });

  it('signs in with the e-mail lowercased and closes', async () => {
    const calls = stubApi({ 'POST /api/auth/login': () => answer(loginAnswerSchema, { token: 'jwt', user: testUser() }) });
    const type = typist();
    renderDialog('login');
    const dialog = await findDialog('Login');
    await type.type(within(dialog).getByLabelText('Email'), 'Player@Example.ORG');
    await type.type(within(dialog).getByLabelText('Password'), 'Secret1');
    await type.click(within(dialog).getByRole('button', { name: 'Login' }));
    expect(calls[0]).toEqual({ route: 'POST /api/auth/login', body: { email: 'player@example.org', password: 'Secret1' } });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(currentSession()).toMatchObject({ status: 'signed-in', token: 'jwt', user: { username: 'keymaster' } });
  });

  it("shows 'Invalid email or password' under the password for any other failure", async () => {
    stubApi({ 'POST /api/auth/login': () => json(401, { error: 'Invalid email or password' }) });
    const type = typist();
    renderDialog('login', { email: 'player@example.org' });
    const dialog = await findDialog('Login');
    expect((within(dialog).getByLabelText('Email') as HTMLInputElement).value).toBe('player@example.org');
    const password = within(dialog).getByLabelText('Password');
    await type.type(password, 'wrong{Enter}');
    expect(describedText(password)).toBe('Invalid email or password');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(currentSession().status).toBe('signed-out');
  });

  it('asks for the new-device code when the server wants two-factor', async () => {
    const message = 'You are signing in from a new device. We sent a 6-digit code to your email.';
    stubApi({ 'POST /api/auth/login': () => answer(loginAnswerSchema, { twoFactorRequired: true, method: 'email', message }) });
    const type = typist();
    renderDialog('login', { email: 'player@example.org' });
    await type.type(within(await findDialog('Login')).getByLabelText('Password'), 'Secret1{Enter}');
    const dialog = await findDialog('Verify new device');
    expect(dialog.textContent).toContain('logging in from a new IP address');
    expect(dialog.textContent).toContain('6-digit code to player@example.org');
    expect(within(dialog).getAllByRole('textbox', { name: /^Digit \d of 6$/ })).toHaveLength(6);
  });

  it('offers to resend the verification e-mail to an unverified account, then asks for the code', async () => {
    const calls = stubApi({
      'POST /api/auth/login': () => json(403, { error: 'Please verify your email' }),
      'POST /api/auth/resend-verification': () => answer(messageSchema, { message: 'Verification code resent successfully!' }),
    });
    const type = typist();
    renderDialog('login', { email: 'Player@example.org' });
    let dialog = await findDialog('Login');
    await type.type(within(dialog).getByLabelText('Password'), 'Secret1{Enter}');
    expect(within(dialog).getByRole('alert').textContent).toContain('Please verify your email');
    expect(describedText(within(dialog).getByLabelText('Password'))).toBeUndefined();
    await type.click(within(dialog).getByRole('button', { name: 'Resend verification email?' }));
    expect(calls.at(-1)).toEqual({ route: 'POST /api/auth/resend-verification', body: { email: 'player@example.org' } });
    expect(toastTexts()).toEqual(['Verification email has been sent again!']);
    dialog = await findDialog('Confirm your email');
    expect(dialog.textContent).toContain('player@example.org');
  });

  it('says so in a toast when the verification e-mail cannot be resent', async () => {
    stubApi({ 'POST /api/auth/login': () => json(403, { error: 'Please verify your email' }), 'POST /api/auth/resend-verification': networkError });
    const type = typist();
    renderDialog('login', { email: 'player@example.org' });
    const dialog = await findDialog('Login');
    await type.type(within(dialog).getByLabelText('Password'), 'Secret1{Enter}');
    await type.click(within(dialog).getByRole('button', { name: 'Resend verification email?' }));
    expect(toastTexts()).toEqual(['Failed to resend verification email. Please try again.']);
    expect(screen.getByRole('dialog', { name: 'Login' })).toBeTruthy();
  });

  it('leads to the forgot and sign-up dialogs, and closes with Escape', async () => {
    stubApi({});
    const type = typist();
    renderDialog('login');
    await type.type(within(await findDialog('Login')).getByLabelText('Email'), 'player@example.org');
    await type.click(screen.getByRole('button', { name: 'Forgot password?' }));
    const forgot = await findDialog('Forgot password');
    expect((within(forgot).getByLabelText('Email') as HTMLInputElement).value).toBe('player@example.org');
    await type.click(within(forgot).getByRole('button', { name: 'Back to login' }));
    await type.click(within(await findDialog('Login')).getByRole('button', { name: 'Sign Up' }));
    await findDialog('Sign Up');
    await type.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps keyboard focus inside the dialog', async () => {
    stubApi({});
    const type = typist();
    renderDialog('login');
    const dialog = await findDialog('Login');
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Email'));
    for (let n = 0; n < 12; n++) {
      await type.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
  });
});
