import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messageSchema, sessionSchema } from '@keystore/contract';
import { currentSession } from '../../lib/session.ts';
import { answer, testUser } from '../../test/contract-fixtures.ts';
import { json, networkError, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { codeBoxes, enterCode, findDialog, renderDialog, toastTexts, typist } from './auth-test-kit.tsx';

const boxes = codeBoxes;
const code = (dialog: HTMLElement) => boxes(dialog).map((box) => box.value).join('');
const later = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));


describe('the e-mail code dialog', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(resetTestState);

  it('asks for all six digits before sending anything', async () => {
    const calls = stubApi({});
    renderDialog('confirm', { email: 'player@example.org' });
    const dialog = await findDialog('Confirm your email');
    expect(dialog.textContent).toContain('player@example.org');
    const type = typist();
    await type.click(boxes(dialog)[0]!);
    await type.keyboard('123');
    await type.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Please enter the complete 6-digit code.');
    expect(calls).toEqual([]);
  });

  it("marks the boxes invalid with the server's reason, or the fallback, for a wrong code", async () => {
    let reply = json(400, { error: 'This code has expired. Please request a new one.' });
    const calls = stubApi({ 'POST /api/auth/verify-email': () => reply });
    renderDialog('confirm', { email: 'player@example.org' });
    const dialog = await findDialog('Confirm your email');
    const type = await enterCode(dialog, '123456');
    expect(calls[0]).toEqual({ route: 'POST /api/auth/verify-email', body: { email: 'player@example.org', code: '123456' } });
    expect(within(dialog).getByRole('alert').textContent).toBe('This code has expired. Please request a new one.');
    expect(boxes(dialog).every((box) => box.getAttribute('aria-invalid') === 'true')).toBe(true);
    expect(code(dialog)).toBe('123456');
    reply = json(502);
    await type.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Invalid verification code. Please try again.');
    // Editing the code clears the verdict.
    await type.click(boxes(dialog)[5]!);
    await type.keyboard('7');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(boxes(dialog)[0]!.getAttribute('aria-invalid')).toBeNull();
  });

  it('confirms, then opens the login with the e-mail filled in 1.5 s later', async () => {
    stubApi({ 'POST /api/auth/verify-email': () => answer(messageSchema, { message: 'Email verified successfully!' }) });
    renderDialog('confirm', { email: 'player@example.org' });
    const dialog = await findDialog('Confirm your email');
    await enterCode(dialog, '123456');
    expect(toastTexts()).toEqual(['Email verified successfully!']);
    await later(1400);
    expect(screen.getByRole('dialog', { name: 'Confirm your email' })).toBeTruthy();
    await later(100);
    const login = await findDialog('Login');
    expect((within(login).getByLabelText('Email') as HTMLInputElement).value).toBe('player@example.org');
  });

  it('resends the code, then locks Resend for 30 s with a visible countdown', async () => {
    const calls = stubApi({ 'POST /api/auth/resend-verification': () => answer(messageSchema, { message: '' }) });
    renderDialog('confirm', { email: 'player@example.org' });
    const dialog = await findDialog('Confirm your email');
    await typist().click(within(dialog).getByRole('button', { name: 'Resend code' }));
    expect(calls).toEqual([{ route: 'POST /api/auth/resend-verification', body: { email: 'player@example.org' } }]);
    expect(toastTexts()).toEqual(['Verification code resent successfully!']);
    const locked = within(dialog).getByRole('button', { name: 'Resend code in 30 s' }) as HTMLButtonElement;
    expect(locked.disabled).toBe(true);
    await later(1000);
    expect(locked.textContent).toBe('Resend code in 29 s');
    await later(29_000);
    expect(locked.textContent).toBe('Resend code');
    expect(locked.disabled).toBe(false);
  });

  it("fails to resend with a toast, and waits as long as a 429's Retry-After says", async () => {
    let reply = json(500);
    stubApi({ 'POST /api/auth/resend-verification': () => reply });
    renderDialog('confirm', { email: 'player@example.org' });
    const dialog = await findDialog('Confirm your email');
    const type = typist();
    await type.click(within(dialog).getByRole('button', { name: 'Resend code' }));
    expect(toastTexts()).toEqual(['Failed to resend code. Please try again.']);
    expect((within(dialog).getByRole('button', { name: 'Resend code' }) as HTMLButtonElement).disabled).toBe(false);
    reply = json(429, { error: 'Please wait 12 seconds before requesting a new code.' }, { 'Retry-After': '12' });
    await type.click(within(dialog).getByRole('button', { name: 'Resend code' }));
    expect(within(dialog).getByRole('button', { name: 'Resend code in 12 s' })).toBeTruthy();
  });

  it('closes its toasts after 4 s', async () => {
    stubApi({ 'POST /api/auth/resend-verification': networkError });
    renderDialog('confirm', { email: 'player@example.org' });
    await typist().click(within(await findDialog('Confirm your email')).getByRole('button', { name: 'Resend code' }));
    expect(toastTexts()).toHaveLength(1);
    await later(3900);
    expect(toastTexts()).toHaveLength(1);
    await later(100);
    expect(toastTexts()).toEqual([]);
  });
});

describe('the new-device dialog', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(resetTestState);

  it("clears the boxes with the server's reason, or the fallback, for a wrong code", async () => {
    let reply = json(400, { error: 'Too many incorrect attempts. Please request a new code.' });
    stubApi({ 'POST /api/auth/verify-new-device': () => reply });
    renderDialog('verifyNewDevice', { email: 'player@example.org' });
    const dialog = await findDialog('Verify new device');
    expect(dialog.textContent).toContain('You are logging in from a new IP address');
    const type = await enterCode(dialog, '123456');
    expect(within(dialog).getByRole('alert').textContent).toBe('Too many incorrect attempts. Please request a new code.');
    expect(code(dialog)).toBe('');
    expect(document.activeElement).toBe(boxes(dialog)[0]);
    reply = json(500);
    await type.paste('654321');
    await type.click(within(dialog).getByRole('button', { name: 'Verify' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Invalid verification code. Please try again.');
    expect(currentSession().status).toBe('signed-out');
  });

  it('signs in at once and closes 1.5 s later', async () => {
    const calls = stubApi({ 'POST /api/auth/verify-new-device': () => answer(sessionSchema, { token: 'jwt', user: testUser() }) });
    renderDialog('verifyNewDevice', { email: 'player@example.org' });
    const dialog = await findDialog('Verify new device');
    await enterCode(dialog, '123456');
    expect(calls[0]).toEqual({ route: 'POST /api/auth/verify-new-device', body: { email: 'player@example.org', code: '123456' } });
    expect(toastTexts()).toEqual(['New device verified successfully!']);
    expect(currentSession()).toMatchObject({ status: 'signed-in', user: { username: 'keymaster' } });
    await later(1400);
    expect(screen.getByRole('dialog', { name: 'Verify new device' })).toBeTruthy();
    await later(100);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('resends the new-device code with the same countdown', async () => {
    const calls = stubApi({ 'POST /api/auth/resend-new-device-code': () => answer(messageSchema, { message: 'A new code is on its way.' }) });
    renderDialog('verifyNewDevice', { email: 'player@example.org' });
    const dialog = await findDialog('Verify new device');
    await typist().click(within(dialog).getByRole('button', { name: 'Resend code' }));
    expect(calls).toEqual([{ route: 'POST /api/auth/resend-new-device-code', body: { email: 'player@example.org' } }]);
    expect(toastTexts()).toEqual(['A new code is on its way.']);
    expect(within(dialog).getByRole('button', { name: 'Resend code in 30 s' })).toBeTruthy();
  });
});
