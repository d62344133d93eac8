import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages, validationMessages, type User } from '@keystore/contract';
import { logIn, signedInUser, bearer } from '../../test/accounts.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';

let test: TestApp;

beforeAll(async () => {
  test = await buildTestApp();
});

afterAll(() => test.close());

const profileOf = (headers: { authorization: string }) => test.app.inject({ method: 'GET', url: '/api/users/profile', headers });

const changePassword = (headers: { authorization: string }, payload: Record<string, unknown>) =>
  test.app.inject({ method: 'PUT', url: '/api/users/password', headers, payload });

const deleteAccount = (headers: { authorization: string } | Record<string, never>, payload?: Record<string, unknown>) =>
  test.app.inject({ method: 'DELETE', url: '/api/users/profile', headers, ...(payload ? { payload } : {}) });

const mailsTo = async (email: string) =>
  (await test.app.inject({ method: 'GET', url: `/dev/mail/messages?to=${encodeURIComponent(email)}` })).json<Array<{ subject: string; text: string }>>();

const login = (email: string, password: string) => test.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

describe('GET /api/users/profile', () => {
  it('shows the signed-in customer with no purchases yet', async () => {
    const bob = await signedInUser(test.app, { username: 'Bob.Builder', email: 'bob@gmail.com' });
    const answer = await profileOf(bob.headers);
    expect(answer.statusCode).toBe(200);
    const user = answer.json<User>();
    expect(user).toEqual({
      _id: bob.user._id,
      username: 'Bob.Builder',
      email: 'bob@gmail.com',
      avatar: null,
      role: 'customer',
      createdAt: expect.any(String),
      totalSpent: 0,
      totalGames: 0,
      membership: 'Key Newb',
      purchaseHistory: [],
    });
    expect(Date.now() - Date.parse(user.createdAt)).toBeLessThan(60_000);
    expect(JSON.stringify(user)).not.toMatch(/password|hash/i);
  });

  it('answers 401 without a token or with a bad one', async () => {
    const without = await test.app.inject({ method: 'GET', url: '/api/users/profile' });
    expect(without.statusCode).toBe(401);
    expect(without.json()).toEqual({ error: accountMessages.authRequired });
    expect((await profileOf(bearer('not.a.token'))).statusCode).toBe(401);
  });
});

describe('PUT /api/users/password', () => {
  it('refuses a wrong current password and keeps the old one', async () => {
    const carol = await signedInUser(test.app);
    const answer = await changePassword(carol.headers, { currentPassword: 'Wrong123', newPassword: 'Another456' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ error: accountMessages.currentPasswordWrong });
    expect((await login(carol.email, carol.password)).statusCode).toBe(200);
  });

  it('stops guessing the current password through a session after 10 tries in 15 minutes', async () => {
    const erin = await signedInUser(test.app);
    for (let guess = 0; guess < 10; guess += 1) {
      expect((await changePassword(erin.headers, { currentPassword: `Guess${guess}x`, newPassword: 'Another456' })).statusCode).toBe(400);
    }
    const blocked = await changePassword(erin.headers, { currentPassword: erin.password, newPassword: 'Another456' });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json().error).toMatch(/^Too many attempts\. Please try again in \d+ seconds\.$/);
    expect((await login(erin.email, erin.password)).statusCode).toBe(200);
  });

  it('checks the new password by the profile rules', async () => {
    const dave = await signedInUser(test.app);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ newPassword: 'Another456' }, validationMessages.currentPasswordRequired],
      [{ currentPassword: dave.password }, validationMessages.newPasswordRequired],
      [{ currentPassword: dave.password, newPassword: 'Ab1' }, validationMessages.newPasswordTooShort],
      [{ currentPassword: dave.password, newPassword: 'lowercase1' }, validationMessages.newPasswordUppercase],
      [{ currentPassword: dave.password, newPassword: 'fifteen chars!!' }, validationMessages.newPasswordUppercase],
      [{ currentPassword: dave.password, newPassword: 'Letmein1' }, validationMessages.passwordCommon],
      [{ currentPassword: dave.password, newPassword: 'Qwerty123456' }, validationMessages.passwordCommon],
    ];
    for (const [payload, message] of cases) {
      const answer = await changePassword(dave.headers, payload);
      expect(answer.statusCode, message).toBe(400);
      expect(answer.json()).toEqual({ error: message });
    }
  });

  it('sets the new password, signs out the other devices, keeps this one and mails a notice', async () => {
    const erin = await signedInUser(test.app);
    const otherDevice = await logIn(test.app, erin.email, erin.password);
    expect((await profileOf(bearer(otherDevice.token))).statusCode).toBe(200);

    const answer = await changePassword(erin.headers, { currentPassword: erin.password, newPassword: 'Brand-New9' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ message: accountMessages.passwordUpdated });

    expect((await profileOf(bearer(otherDevice.token))).statusCode).toBe(401);
    expect((await profileOf(erin.headers)).statusCode).toBe(200);
    const withOld = await login(erin.email, erin.password);
    expect(withOld.statusCode).toBe(401);
    expect(withOld.json()).toEqual({ error: accountMessages.invalidCredentials });
    expect((await login(erin.email, 'Brand-New9')).statusCode).toBe(200);

    const mails = await test.app.inject({ method: 'GET', url: `/dev/mail/messages?to=${encodeURIComponent(erin.email)}` });
    expect(mails.json<Array<{ subject: string }>>()[0]?.subject).toMatch(/password was changed/i);
  });

  it('takes a passphrase of 16 or more characters without an uppercase letter (decision 017)', async () => {
    const gina = await signedInUser(test.app);
    const answer = await changePassword(gina.headers, { currentPassword: gina.password, newPassword: 'correct horse battery staple' });
    expect(answer.statusCode).toBe(200);
    expect((await login(gina.email, 'correct horse battery staple')).statusCode).toBe(200);
  });

  it('answers 401 without a token', async () => {
    const answer = await test.app.inject({ method: 'PUT', url: '/api/users/password', payload: { currentPassword: 'Secret123', newPassword: 'Other123' } });
    expect(answer.statusCode).toBe(401);
  });
});

describe('DELETE /api/users/profile', () => {
  it('deletes the account, its avatar and every session; the e-mail can sign up again', async () => {
    const frank = await signedInUser(test.app);
    const otherDevice = await logIn(test.app, frank.email, frank.password);
    const form = new FormData();
    form.append('avatar', new Blob([new Uint8Array(await sharp({ create: { width: 32, height: 32, channels: 3, background: '#09c' } }).png().toBuffer())]), 'me.png');
    const encoded = new Response(form);
    const uploaded = await test.app.inject({
      method: 'PUT',
      url: '/api/users/profile',
      headers: { ...frank.headers, 'content-type': encoded.headers.get('content-type')! },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    const avatarUrl = uploaded.json<User>().avatar!;
    expect((await test.app.inject({ url: avatarUrl })).statusCode).toBe(200);

    const answer = await deleteAccount(frank.headers, { currentPassword: frank.password });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ message: accountMessages.accountDeleted });
    const [notice] = await mailsTo(frank.email);
    expect(notice?.subject).toMatch(/account was deleted/i);
    expect(notice?.text).toContain(frank.username);

    expect((await profileOf(frank.headers)).statusCode).toBe(401);
    expect((await profileOf(bearer(otherDevice.token))).statusCode).toBe(401);
    expect((await deleteAccount(frank.headers, { currentPassword: frank.password })).statusCode).toBe(401);
    const again = await login(frank.email, frank.password);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ error: accountMessages.invalidCredentials });
    expect((await test.app.inject({ url: avatarUrl })).statusCode).toBe(404);

    const reborn = await signedInUser(test.app, { email: frank.email, username: frank.username });
    expect(reborn.user._id).not.toBe(frank.user._id);
    expect(reborn.user.avatar).toBeNull();
  });

  it('asks for the password: without it or with a wrong one the account stays', async () => {
    const gina = await signedInUser(test.app);
    const without = await deleteAccount(gina.headers);
    expect(without.statusCode).toBe(400);
    const empty = await deleteAccount(gina.headers, { currentPassword: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ error: validationMessages.currentPasswordRequired });
    const wrong = await deleteAccount(gina.headers, { currentPassword: 'Wrong1234' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: accountMessages.currentPasswordWrong });

    expect((await profileOf(gina.headers)).statusCode).toBe(200);
    expect((await mailsTo(gina.email)).some((mail) => /deleted/i.test(mail.subject))).toBe(false);
  });

  it('counts wrong passwords with the password change: guessing stops after 10 tries in 15 minutes', async () => {
    const hal = await signedInUser(test.app);
    for (let guess = 0; guess < 5; guess += 1) {
      expect((await changePassword(hal.headers, { currentPassword: `Guess${guess}x`, newPassword: 'Another456' })).statusCode).toBe(400);
      expect((await deleteAccount(hal.headers, { currentPassword: `Guess${guess}y` })).statusCode).toBe(400);
    }
    const blocked = await deleteAccount(hal.headers, { currentPassword: hal.password });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toMatch(/^Too many attempts\. Please try again in \d+ seconds\.$/);
    expect((await profileOf(hal.headers)).statusCode).toBe(200);
  });

  it('answers 401 without a token', async () => {
    expect((await deleteAccount({}, { currentPassword: 'Secret123' })).statusCode).toBe(401);
  });
});
