import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages } from '@keystore/contract';
import { signedInUser, type SignedInUser } from '../../test/accounts.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';

// Not JSON at all: a server that parsed it before asking who is calling would answer 400.
const notJson = (bytes: number) => `{"title": "${'x'.repeat(bytes)}`;

describe('who is calling is known before the body is read', () => {
  let t: TestApp;
  let customer: SignedInUser;
  beforeAll(async () => {
    t = await buildTestApp();
    customer = await signedInUser(t.app);
  });
  afterAll(() => t.close());

  const send = (method: 'POST' | 'PUT', url: string, payload: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, payload, headers: { 'content-type': 'application/json', ...headers } });

  it('refuses an anonymous 13 MB news post with 401, without parsing it', async () => {
    const answer = await send('POST', '/api/news', notJson(13 * 1024 * 1024));
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toEqual({ error: accountMessages.authRequired });
  });

  it('refuses an anonymous password change with 401, whatever its body', async () => {
    const answer = await send('PUT', '/api/users/password', notJson(1024));
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toEqual({ error: accountMessages.authRequired });
  });

  it('refuses a customer’s news post with 403 before its body', async () => {
    const answer = await send('POST', '/api/news', notJson(13 * 1024 * 1024), customer.headers);
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toEqual({ error: accountMessages.adminOnly });
  });

  it('keeps the JSON bodies of other routes small', async () => {
    const payload = JSON.stringify({ currentPassword: 'x'.repeat(100 * 1024), newPassword: 'Secret456' });
    const answer = await send('PUT', '/api/users/password', payload, customer.headers);
    expect(answer.statusCode).toBe(413);
  });
});
