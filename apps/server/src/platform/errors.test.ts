// Every error a caller can provoke is a 4xx `{error}`: ids that cannot exist, URLs Fastify
// cannot route, bodies it cannot parse, text with NUL, and what the database refuses.
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogMessages, newsMessages, notificationMessages, orderMessages, requestMessages } from '@keystore/contract';
import { ordersTestApp, type OrdersTestApp } from '../modules/orders/test-kit.ts';
import { registerErrorHandling } from './errors.ts';

let t: OrdersTestApp;
/** An admin's bearer header: protected routes check the session first, then the path. */
let signedIn: Record<string, string>;
beforeAll(async () => {
  t = await ordersTestApp({ sync: false });
  signedIn = (await t.buyer('admin')).headers;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', url: string, payload?: string, contentType = 'application/json', headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': contentType }) }, ...(payload === undefined ? {} : { payload }) });

describe('ids in paths', () => {
  it.each([
    ['GET', '/api/games/%00', catalogMessages.gameNotFound],
    ['GET', '/api/news/%00', newsMessages.notFound],
    ['GET', '/api/orders/%00', orderMessages.orderNotFound],
    ['POST', '/api/orders/abc%00/checkout', orderMessages.orderNotFound],
    ['GET', '/api/purchases/%00/key', orderMessages.keyNotFound],
    ['POST', '/api/notifications/mark-read/%00', notificationMessages.notFound],
    ['POST', '/api/payments/test/%00', orderMessages.orderNotFound],
    ['POST', '/api/admin/orders/%00/refund', orderMessages.orderNotFound],
  ] as const)('%s %s: an id that cannot exist is a 404 with the route’s message', async (method, url, message) => {
    const answer = await call(method, url, undefined, undefined, signedIn);
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toEqual({ error: message });
  });
});

describe('requests Fastify cannot route or parse', () => {
  it('answers a malformed escape in the URL with 400 {error}, not Fastify’s error object', async () => {
    const answer = await call('GET', '/api/games/%ZZ');
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ error: requestMessages.badUrl });
  });

  it('answers an over-long path parameter with 414 {error}', async () => {
    const answer = await call('GET', `/api/games/${'x'.repeat(500)}`);
    expect(answer.statusCode).toBe(414);
    expect(answer.json()).toEqual({ error: requestMessages.urlTooLong });
  });

  it('answers malformed JSON and other media types in its own words, without the parser’s', async () => {
    const broken = await call('POST', '/api/support/chat', '{"message": "hi"');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ error: requestMessages.malformed });
    const text = await call('POST', '/api/support/chat', '<message>hi</message>', 'application/xml');
    expect(text.statusCode).toBe(415);
    expect(text.json()).toEqual({ error: requestMessages.unsupportedType });
  });

  it('refuses NUL in any text field with 400 before it reaches the database', async () => {
    const feedback = { email: 'ada@gmail.com', name: 'Ada\u0000', title: 'Help', message: 'Where is my key?' };
    for (const [url, body] of [
      ['/api/support/feedback', feedback],
      ['/api/auth/login', { email: 'ada\u0000@gmail.com', password: 'Secret123' }],
      ['/api/auth/resend-verification', { email: '\u0000' }],
    ] as const) {
      const answer = await call('POST', url, JSON.stringify(body));
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({ error: requestMessages.unsafeText });
    }
    const search = await call('GET', '/dev/mail/messages?to=%00');
    expect(search.statusCode).toBe(400);
  });
});

describe('what the database refuses', () => {
  it('is the caller’s 4xx, never a 500: bad data 400, a clash with a row written meanwhile 409', async () => {
    // A bare app with the store's error handler and the test's database: routes that make the database refuse.
    const { database } = t;
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    app.get('/nul', async () => database.db.execute(sql`select ${'a\u0000b'}::text`));
    app.get('/clash', async () => {
      await database.db.execute(sql`create table if not exists clash_test (id int primary key)`);
      await database.db.execute(sql`insert into clash_test values (1)`);
      return database.db.execute(sql`insert into clash_test values (1)`);
    });
    const nul = await app.inject({ url: '/nul' });
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toEqual({ error: requestMessages.malformed });
    const clash = await app.inject({ url: '/clash' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({ error: requestMessages.conflict });
    await app.close();
  });
});
