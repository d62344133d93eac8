// The support inbox: the form's messages newest first, and the reply by e-mail through the outbox.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages, type AdminSupportList, type AdminSupportMessage, type AdminStats } from '@keystore/contract';
import { mailOutbox } from '../../platform/schema.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';

describe('back office: support inbox', () => {
  let t: OrdersTestApp;
  let admin: Buyer;

  beforeAll(async () => {
    t = await ordersTestApp({ sync: false });
    admin = await t.buyer('admin');
  });
  afterAll(() => t.close());

  const send = (title: string) =>
    t.app.inject({ method: 'POST', url: '/api/support/feedback', payload: { name: 'Ada', email: 'ada.customer@gmail.com', title, message: 'My key does not work.\nPlease help.' } });
  const inbox = (query = '') => t.app.inject({ url: `/api/admin/support${query}`, headers: admin.headers }).then((answer) => answer.json<AdminSupportList>());

  it('lists messages newest first and sends a reply to the sender, marking it answered', async () => {
    expect((await send('First question')).statusCode).toBeLessThan(300);
    expect((await send('Where is my key')).statusCode).toBeLessThan(300);
    const open = await inbox('?status=open');
    expect(open.items.map((message) => message.title)).toEqual(['Where is my key', 'First question']);
    const [message] = open.items;

    const answer = await t.app.inject({ method: 'POST', url: `/api/admin/support/${message!._id}/reply`, headers: admin.headers, payload: { reply: 'Here is a new key.' } });
    expect(answer.statusCode).toBe(200);
    expect(answer.json<AdminSupportMessage>()).toMatchObject({ status: 'answered', reply: 'Here is a new key.' });
    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.subject, 'Re: Where is my key'));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'ada.customer@gmail.com' });
    expect(mails[0]!.text).toContain('Here is a new key.');

    expect((await inbox('?status=answered')).items.map((item) => item._id)).toEqual([message!._id]);
    const stats = (await t.app.inject({ url: '/api/admin/stats', headers: admin.headers })).json<AdminStats>();
    expect(stats.openSupport).toBe(1);

    const empty = await t.app.inject({ method: 'POST', url: `/api/admin/support/${message!._id}/reply`, headers: admin.headers, payload: { reply: '  ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ error: adminMessages.replyRequired });
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/support/nope/reply', headers: admin.headers, payload: { reply: 'Hi' } })).statusCode).toBe(404);
  });
});
