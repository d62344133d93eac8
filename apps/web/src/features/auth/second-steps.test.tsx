import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { loginAnswerSchema, securityMessages, sessionSchema } from '@keystore/contract';
import { currentSession } from '../../lib/session.ts';
import { answer, testUser } from '../../test/contract-fixtures.ts';
import { json, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { codeBoxes, enterCode, findDialog, renderDialog, typist } from './auth-test-kit.tsx';

// The sign-in's second steps (issue 30): the authenticator app's code or a recovery code.
const CHALLENGE = 'c'.repeat(43);
const boxes = codeBoxes;


describe('the second step of a sign-in', () => {
  afterEach(resetTestState);

  it('opens after the password when the account has the app on, and signs in with its code', async () => {
    let reply = json(400, { error: securityMessages.codeWrong });
    const calls = stubApi({
      'POST /api/auth/login': () => answer(loginAnswerSchema, { twoFactorRequired: true, method: 'totp', message: securityMessages.secondStepTotp, challenge: CHALLENGE }),
      'POST /api/auth/login/totp': () => reply,
    });
    renderDialog('login');
    const login = await findDialog('Login');
    const type = typist();
    await type.type(within(login).getByLabelText('Email'), 'player@example.org');
    await type.type(within(login).getByLabelText('Password'), 'Secret-pass1');
    await type.click(within(login).getByRole('button', { name: 'Login' }));

    const step = await findDialog('Two-step verification');
    expect(step.textContent).toContain(securityMessages.secondStepTotp);
    await enterCode(step, '000000');
    expect(within(step).getByRole('alert').textContent).toBe(securityMessages.codeWrong);
    expect(boxes(step).map((box) => box.value).join('')).toBe('');
    reply = answer(sessionSchema, { token: 'token-2fa', user: testUser() });
    await enterCode(step, '123456');
    expect(calls.filter((call) => call.route === 'POST /api/auth/login/totp').at(-1)!.body).toEqual({ challenge: CHALLENGE, code: '123456' });
    expect(currentSession().token).toBe('token-2fa');
  });

  it('takes a recovery code instead, and starts again once the challenge is over', async () => {
    let reply = json(400, { error: securityMessages.challengeExhausted });
    const calls = stubApi({ 'POST /api/auth/login/totp': () => reply });
    renderDialog('totp', { email: 'player@example.org', challenge: CHALLENGE });
    const step = await findDialog('Two-step verification');
    const type = typist();
    await type.click(within(step).getByRole('button', { name: 'Use a recovery code instead' }));
    await type.type(within(step).getByLabelText('Recovery code'), 'abcde-12345');
    await type.click(within(step).getByRole('button', { name: 'Verify' }));
    expect(calls[0]!.body).toEqual({ challenge: CHALLENGE, recoveryCode: 'abcde-12345' });
    expect(within(step).getByRole('alert').textContent).toBe(securityMessages.challengeExhausted);
    reply = answer(sessionSchema, { token: 'unused', user: testUser() });
    await type.click(within(step).getByRole('button', { name: 'Sign in again' }));
    expect(await screen.findByRole('dialog', { name: 'Login' })).toBeTruthy();
  });
});
