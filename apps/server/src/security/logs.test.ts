// The log as an attacker who reads it would: the store runs as in production but at LOG_LEVEL=debug,
// the most it ever writes, while a customer signs up, resets the password, buys and reveals a key.
// Nothing in the log may open the account or use the key: no e-mailed code, no reset token, no
// session token or stream ticket, no product key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameListItem, Purchase, Session } from '@keystore/contract';
import { eventually, startInstance, type Instance } from '../test/cluster-kit.ts';
import { codeIn, linkIn, startSmtpSink, type SmtpSink } from '../test/smtp-sink.ts';

describe('secrets in the log', () => {
  let sink: SmtpSink;
  let store: Instance;
  const secrets: string[] = [];

  const call = async <T>(pathname: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<T> => {
    const headers: Record<string, string> = {};
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    const answer = await fetch(`${store.base}${pathname}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await answer.text();
    if (!answer.ok) throw new Error(`${pathname}: ${answer.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };

  beforeAll(async () => {
    sink = await startSmtpSink();
    store = await startInstance({ env: { NODE_ENV: 'production', LOG_LEVEL: 'debug', SMTP_URL: sink.url } });
  }, 120_000);
  afterAll(async () => {
    await store?.stop();
    await sink?.close();
  });

  it('holds no code, token, ticket or key after sign-up, a reset and a revealed key', async () => {
    const email = 'log.reader@gmail.com';
    const password = 'First-pass1';
    await call('/api/auth/register', { body: { username: 'Log_reader', email, password } });
    const code = codeIn(await sink.nextMail(email));
    secrets.push(code);
    await call('/api/auth/verify-email', { body: { email, code } });

    await call('/api/auth/forgot-password', { body: { email } });
    const resetToken = linkIn(await sink.nextMail(email), '/reset-password').searchParams.get('token')!;
    secrets.push(resetToken);
    await call('/api/auth/reset-password', { body: { email, token: resetToken, password: 'Second-pass2' } });
    const { token } = await call<Session>('/api/auth/login', { body: { email, password: 'Second-pass2' } });
    secrets.push(token);
    const { ticket } = await call<{ ticket: string }>('/api/notifications/stream-ticket', { method: 'POST', token });
    secrets.push(ticket);
    const stream = new AbortController();
    await fetch(`${store.base}/api/notifications/stream?ticket=${ticket}`, { signal: stream.signal }).catch(() => undefined);
    stream.abort();

    const { items } = await call<{ items: GameListItem[] }>('/api/games?limit=50');
    const game = items.find((item) => item.stock > 0)!;
    const { order } = await call<{ order: { _id: string } }>('/api/orders', { body: { items: [{ gameId: game._id, quantity: 1 }] }, token });
    await call(`/api/payments/test/${order._id}`, { body: { cardNumber: '4242424242424242', expiry: '12/39', cvc: '123', name: 'Log Reader' }, token });
    const purchase = await eventually(async () => (await call<Purchase[]>('/api/purchases', { token }))[0], 20_000);
    expect(purchase).toBeDefined();
    const { key } = await call<{ key: string }>(`/api/purchases/${purchase!._id}/key`, { token });
    secrets.push(key);
    // The receipt mailed the key too; the log must not have copied it.
    await sink.nextMail(email);

    const log = store.output();
    // The debug log did record the requests: the test reads a log that says something.
    expect(log).toContain('"url":"/api/purchases/');
    expect(log).toContain('/api/notifications/stream?ticket=[redacted]');
    for (const secret of secrets) expect(log, `the log holds ${secret.slice(0, 4)}…`).not.toContain(secret);
    // Nor a mail's body or subject line, which is where codes and keys travel.
    expect(log).not.toMatch(/verification code|Your keys|reset your password/i);
  });
});
