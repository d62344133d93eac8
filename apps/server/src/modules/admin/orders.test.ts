// The back office's orders: the table and its filters, the CSV export (quoting, formula injection),
// one order with masked keys and its timeline, and each action in each order state.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMessages, type AdminOrder, type AdminOrderList, type AuditList } from '@keystore/contract';
import { orderLines } from '../orders/schema.ts';
import { adminOrderBatches } from '../orders/admin-store.ts';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../orders/test-kit.ts';
import { DemoSupplier } from '../supplier/demo.ts';
import type { SupplierOrderLine } from '../supplier/supplier.ts';

/** The demo supplier, out of order while `broken`: a paid order then waits for its keys. */
class FlakySupplier extends DemoSupplier {
  broken = false;
  override async placeOrder(externalId: string, lines: SupplierOrderLine[]) {
    if (this.broken) throw new Error('supplier unavailable');
    return super.placeOrder(externalId, lines);
  }
}

type State = 'Awaiting payment' | 'Declined' | 'Delivered' | 'Undelivered' | 'Refunded';

describe('back office: orders', () => {
  const supplier = new FlakySupplier();
  let t: OrdersTestApp;
  let admin: Buyer;
  let game = 0;

  beforeAll(async () => {
    t = await ordersTestApp({ supplier });
    admin = await t.buyer('admin');
  });
  afterAll(() => t.close());

  const get = <T>(url: string) => t.app.inject({ url, headers: admin.headers }).then((answer) => ({ status: answer.statusCode, body: answer.json<T>() }));
  const act = (orderId: string, action: string, reason?: string) =>
    t.app.inject({ method: 'POST', url: `/api/admin/orders/${orderId}/${action}`, headers: admin.headers, payload: reason ? { reason } : {} });

  /** An order of a new buyer, brought into `state`. */
  async function orderIn(state: State): Promise<{ orderId: string; buyer: Buyer }> {
    const buyer = await t.buyer();
    game += 1;
    const { order } = await t.order(buyer, await t.gameWithStock(50, game));
    if (state === 'Declined') await t.pay(buyer, order._id, { cardNumber: '4000 0000 0000 0002' });
    if (state === 'Delivered' || state === 'Refunded') expect((await t.pay(buyer, order._id)).json()).toMatchObject({ status: 'Paid' });
    if (state === 'Undelivered') {
      supplier.broken = true;
      await t.pay(buyer, order._id);
      await t.app.orders.allocator.drain();
      supplier.broken = false;
    }
    if (state === 'Refunded') expect((await act(order._id, 'refund')).statusCode).toBe(200);
    return { orderId: order._id, buyer };
  }

  it('lists orders newest first, found by order id, buyer e-mail or username, or game title, and filtered by status', async () => {
    const { orderId, buyer } = await orderIn('Delivered');
    const { orderId: other } = await orderIn('Awaiting payment');
    const all = await get<AdminOrderList>('/api/admin/orders?pageSize=2');
    expect(all.status).toBe(200);
    expect(all.body.items.map((row) => row._id)).toEqual([other, orderId]);
    expect(all.body).toMatchObject({ page: 1, pageSize: 2 });
    expect(all.body.total).toBeGreaterThanOrEqual(2);

    const byEmail = await get<AdminOrderList>(`/api/admin/orders?q=${encodeURIComponent(buyer.email.toUpperCase())}`);
    expect(byEmail.body.items).toMatchObject([{ _id: orderId, status: 'Paid', deliveryStatus: 'Delivered', buyer: { id: buyer.userId, email: buyer.email } }]);
    expect((await get<AdminOrderList>(`/api/admin/orders?q=${orderId}`)).body.items.map((row) => row._id)).toEqual([orderId]);
    const [line] = await t.database.db.select({ title: orderLines.title }).from(orderLines).where(eq(orderLines.orderId, orderId));
    expect((await get<AdminOrderList>(`/api/admin/orders?q=${encodeURIComponent(line!.title)}`)).body.items.map((row) => row._id)).toContain(orderId);

    const awaiting = await get<AdminOrderList>('/api/admin/orders?status=Awaiting%20payment');
    expect(awaiting.body.items.every((row) => row.status === 'Awaiting payment')).toBe(true);
    expect(awaiting.body.items.map((row) => row._id)).toContain(other);
    const today = new Date().toISOString().slice(0, 10);
    expect((await get<AdminOrderList>(`/api/admin/orders?from=${today}&to=${today}&q=${orderId}`)).body.total).toBe(1);
    expect((await get<AdminOrderList>(`/api/admin/orders?to=2000-01-01&q=${orderId}`)).body.total).toBe(0);
    expect((await get('/api/admin/orders?from=yesterday')).status).toBe(400);
  });

  it('exports CSV with RFC 4180 quoting and no cell a spreadsheet would run as a formula', async () => {
    const { orderId } = await orderIn('Delivered');
    await t.database.db.update(orderLines).set({ title: '=HYPERLINK("http://evil.example","Click"), now' }).where(eq(orderLines.orderId, orderId));
    const answer = await t.app.inject({ url: `/api/admin/orders.csv?q=${orderId}`, headers: admin.headers });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    const records = answer.body.split('\r\n');
    expect(records[0]).toBe('Order,Created,Status,Delivery,Amount,Currency,Items,Provider,Buyer e-mail,Buyer username');
    expect(records[1]).toContain(`${orderId},`);
    // The apostrophe defuses the formula; the quotes are doubled and the cell quoted (it holds a comma).
    expect(records[1]).toContain(`,"'=HYPERLINK(""http://evil.example"",""Click""), now",test,`);
    expect(records[2]).toBe('');
    expect(records).toHaveLength(3);
  });

  it('reads every order once, newest first, across export batches, even within one millisecond', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 5; n += 1) ids.push((await orderIn('Awaiting payment')).orderId);
    // Microseconds apart within one millisecond: a cursor kept as a JS Date would skip some.
    for (const [n, id] of ids.entries()) {
      await t.database.db.execute(sql`update orders set created_at = '2030-01-01T00:00:00.000100Z'::timestamptz + ${n * 100} * interval '1 microsecond' where id = ${id}`);
    }
    const read: string[] = [];
    for await (const batch of adminOrderBatches(t.database.db, { from: '2030-01-01' }, 2)) read.push(...batch.map((row) => row.id));
    expect(read).toEqual([...ids].reverse());
  });

  it('shows one order with its buyer, payment, masked keys and timeline; never a whole key', async () => {
    const { orderId, buyer } = await orderIn('Delivered');
    const [receipt] = await t.mailsTo(buyer.email);
    const detail = await get<AdminOrder>(`/api/admin/orders/${orderId}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      order: { _id: orderId, status: 'Paid', deliveryStatus: 'Delivered' },
      buyer: { id: buyer.userId, email: buyer.email },
      payment: { provider: 'test' },
    });
    expect(detail.body.keys).toHaveLength(1);
    const masked = detail.body.keys[0]!.masked;
    expect(detail.body.keys[0]!.revealed).toBe(false);
    // The receipt links to the library and carries no key (issue 23); the buyer reveals it there.
    expect(receipt!.text).toContain(`/library?order=${orderId}`);
    const [purchase] = (await t.app.inject({ url: '/api/purchases', headers: buyer.headers })).json<Array<{ _id: string }>>();
    const serial = (await t.app.inject({ url: `/api/purchases/${purchase!._id}/key`, headers: buyer.headers })).json<{ key: string }>().key;
    expect(receipt!.text).not.toContain(serial);
    expect(masked.slice(-4)).toBe(serial.slice(-4));
    expect(JSON.stringify(detail.body)).not.toContain(serial);
    expect(detail.body.timeline.map((event) => [event.kind, event.from, event.to, event.actor.split(':')[0]])).toEqual([
      ['status', null, 'Awaiting payment', 'customer'],
      ['status', 'Awaiting payment', 'Paid', 'provider'],
      ['delivery', 'Pending', 'Delivered', 'system'],
    ]);
    expect((await get(`/api/admin/orders/no-such-order`)).status).toBe(404);
  });

  // Each action in each state: allowed (200) or refused with its text (409).
  const allowed: Record<string, State[]> = { refund: ['Delivered', 'Undelivered', 'Refunded'], resend: ['Delivered'], 'retry-delivery': ['Undelivered'] };
  const refusal: Record<string, string> = { refund: adminMessages.refundNotAllowed, resend: adminMessages.resendNotAllowed, 'retry-delivery': adminMessages.retryNotAllowed };
  const states: State[] = ['Awaiting payment', 'Declined', 'Delivered', 'Undelivered', 'Refunded'];
  const cases = Object.keys(allowed).flatMap((action) => states.map((state) => [action, state, allowed[action]!.includes(state)] as const));

  it.each(cases)('%s of an order %s: allowed %s', async (action, state, ok) => {
    const { orderId } = await orderIn(state);
    const before = await get<AdminOrder>(`/api/admin/orders/${orderId}`);
    const answer = await act(orderId, action, `Ticket #${action}-${state}`);
    if (!ok) {
      expect(answer.statusCode).toBe(409);
      expect(answer.json()).toEqual({ error: refusal[action] });
      expect((await get<AdminOrder>(`/api/admin/orders/${orderId}`)).body.timeline).toEqual(before.body.timeline);
      return;
    }
    expect(answer.statusCode).toBe(200);
    const after = answer.json<AdminOrder>();
    const audit = (await get<AuditList>('/api/admin/audit?pageSize=100')).body.items.filter((entry) => entry.target.id === orderId);
    if (action === 'refund' && state === 'Refunded') {
      // Already refunded: nothing is done or recorded again.
      expect(after.timeline).toEqual(before.body.timeline);
      expect(audit.map((entry) => entry.reason)).toEqual([null]);
      return;
    }
    // The action's own events are the admin's, with the reason; the delivery a retry starts may
    // already have followed them before the answer was read (the system's).
    const added = after.timeline.slice(before.body.timeline.length).filter((event) => !event.actor.startsWith('system:'));
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((event) => event.actor === `admin:${admin.userId}` && event.reason === `Ticket #${action}-${state}`)).toBe(true);
    expect(audit).toMatchObject([{ action: `order.${action}`, actor: { id: admin.userId, email: admin.email }, target: { type: 'order', id: orderId }, reason: `Ticket #${action}-${state}` }]);
    if (action === 'refund') expect(after.order.status).toBe('Refunded');
  });

  it('resends the receipt with the keys to the buyer only, once for a double click', async () => {
    const { orderId, buyer } = await orderIn('Delivered');
    expect(await t.mailsTo(buyer.email)).toHaveLength(1);
    expect((await act(orderId, 'resend')).statusCode).toBe(200);
    expect((await act(orderId, 'resend')).statusCode).toBe(200);
    const mails = await t.mailsTo(buyer.email);
    expect(mails).toHaveLength(2);
    expect(mails[0]!.text).toBe(mails[1]!.text);
    expect((await get<AdminOrder>(`/api/admin/orders/${orderId}`)).body.timeline.filter((event) => event.kind === 'action')).toMatchObject([
      { to: 'Receipt sent again', actor: `admin:${admin.userId}` },
    ]);
  });

  it('retries a delivery at once: the keys come once the supplier answers', async () => {
    const { orderId } = await orderIn('Undelivered');
    expect((await get<AdminOrder>(`/api/admin/orders/${orderId}`)).body.order.deliveryStatus).toBe('Pending');
    expect((await act(orderId, 'retry-delivery')).statusCode).toBe(200);
    await t.app.orders.allocator.drain();
    const detail = (await get<AdminOrder>(`/api/admin/orders/${orderId}`)).body;
    expect(detail.order.deliveryStatus).toBe('Delivered');
    expect(detail.timeline.map((event) => event.to).slice(-2)).toEqual(['Delivery retried', 'Delivered']);
    expect((await act(orderId, 'retry-delivery')).statusCode).toBe(409);
  });
});
