// Multipart bodies no browser sends: the avatar and the news form answer 400 {error}, never 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestMessages } from '@keystore/contract';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../modules/orders/test-kit.ts';

let t: OrdersTestApp;
let customer: Buyer;
let admin: Buyer;
beforeAll(async () => {
  t = await ordersTestApp({ sync: false });
  [customer, admin] = [await t.buyer(), await t.buyer('admin')];
});
afterAll(() => t.close());

const longBoundary = 'b'.repeat(5000);
const malformed: Array<[string, string, string]> = [
  ['garbage after the boundary', 'multipart/form-data; boundary=xyz', 'this is not a multipart body at all'],
  ['a 5000-character boundary', `multipart/form-data; boundary=${longBoundary}`, `--${longBoundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\r\n--${longBoundary}--\r\n`],
  ['a body cut short', 'multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG'],
  ['no boundary', 'multipart/form-data', '--xyz\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\r\n--xyz--\r\n'],
];

describe.each([
  ['PUT', '/api/users/profile', () => customer],
  ['POST', '/api/news', () => admin],
] as const)('%s %s with a malformed multipart body', (method, url, caller) => {
  it.each(malformed)('answers %s with 400: the form could not be read', async (_name, contentType, payload) => {
    const answer = await t.app.inject({ method, url, payload, headers: { ...caller().headers, 'content-type': contentType } });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ error: requestMessages.malformedForm });
  });
});
