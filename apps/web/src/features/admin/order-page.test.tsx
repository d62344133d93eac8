import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { adminMessages, adminOrderSchema, orderSchema } from '@keystore/contract';
import { testAdminOrder } from '../../test/admin-fixtures.ts';
import { answer, testOrder } from '../../test/contract-fixtures.ts';
import { json, renderWithQueries, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { Toasts } from '../../ui/toasts.tsx';
import { AdminOrderPage } from './order-page.tsx';

afterEach(resetTestState);

function renderOrder() {
  renderWithQueries(
    <MemoryRouter initialEntries={['/admin/orders/o1']}>
      <Routes>
        <Route path="/admin/orders/:id" element={<AdminOrderPage />} />
      </Routes>
      <Toasts />
    </MemoryRouter>,
  );
}

describe('an order in the back office', () => {
  it('shows its timeline, its buyer and its keys masked', async () => {
    stubApi({ 'GET /api/admin/orders/o1': () => answer(adminOrderSchema, testAdminOrder()) });
    renderOrder();
    const timeline = await screen.findByRole('table', { name: 'Timeline' });
    expect(within(timeline).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'TimeChangeByReasonRequest',
      '2026-11-24 10:15new → Awaiting paymentcustomer:u1—4f1c2a9e-5b7d-4c3e-9a81-2d6f0b3e7c55',
      '2026-11-24 10:16Awaiting payment → Paidprovider:test—b2e8d0c4-1f6a-4d92-8e3b-7a5c9f1d0e24',
      // A job's step was caused by no request.
      '2026-11-24 10:16Delivery: Pending → Deliveredsystem:delivery——',
    ]);
    expect(screen.getByRole('cell', { name: 'Key ending 7Q2Z' }).textContent).toBe('••••••••••••7Q2Z');
    expect(screen.getByRole('link', { name: 'player@example.org' }).getAttribute('href')).toBe('/admin/users/u1');
    expect(screen.getByText('pay_123', { exact: false })).toBeTruthy();
    // Each line names the seller whose offer its keys came from.
    const lines = screen.getByRole('table', { name: 'Lines' });
    expect(within(lines).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'GamePlatformSellerQuantityUnit priceKeys deliveredAmount',
      'HadesPCKeystore1€19.991€19.99',
    ]);
  });

  it('shows a declared-stock seller’s reservation and the calls to its endpoint in the timeline, marked as the seller’s', async () => {
    const order = testAdminOrder();
    stubApi({
      'GET /api/admin/orders/o1': () =>
        answer(
          adminOrderSchema,
          testAdminOrder({
            timeline: [
              ...order.timeline.slice(0, 2),
              { at: '2026-11-24T10:16:05Z', kind: 'seller', from: 'reserved', to: 'KeyShack · Hades × 1: provided', actor: 'seller:KeyShack', reason: null },
              { at: '2026-11-24T10:16:06Z', kind: 'seller', from: null, to: 'KeyShack: provide → 504 in 30000 ms', actor: 'seller:KeyShack', reason: 'timed out' },
            ],
          }),
        ),
    });
    renderOrder();
    const timeline = await screen.findByRole('table', { name: 'Timeline' });
    expect(within(timeline).getAllByRole('row').slice(3).map((row) => row.textContent)).toEqual([
      '2026-11-24 10:16Seller KeyShack · Hades × 1: provided (was reserved)seller:KeyShack——',
      '2026-11-24 10:16Seller KeyShack: provide → 504 in 30000 msseller:KeyShacktimed out—',
    ]);
  });

  it('refunds after the confirm dialog, with the reason, then loads the order again', async () => {
    let refunded = false;
    const calls = stubApi({
      'GET /api/admin/orders/o1': () =>
        answer(adminOrderSchema, refunded ? testAdminOrder({ order: testOrder({ status: 'Refunded', deliveryStatus: 'Delivered' }) }) : testAdminOrder()),
      'POST /api/admin/orders/o1/refund': () => {
        refunded = true;
        return answer(orderSchema, testOrder({ status: 'Refunded' }));
      },
    });
    renderOrder();
    await screen.findByRole('table', { name: 'Timeline' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Refund' }));
    const dialog = screen.getByRole('dialog', { name: 'Refund?' });
    expect(calls.filter((call) => call.route.startsWith('POST'))).toEqual([]);
    await user.type(within(dialog).getByLabelText('Reason (optional)'), 'Key did not work');
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByText('The order was refunded.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    await screen.findByText('Refunded');
    expect(calls.map(({ route, body }) => [route, body])).toEqual([
      ['GET /api/admin/orders/o1', undefined],
      ['POST /api/admin/orders/o1/refund', { reason: 'Key did not work' }],
      ['GET /api/admin/orders/o1', undefined],
    ]);
  });

  it('shows the server’s 409 text when the order’s state does not allow the action', async () => {
    stubApi({
      'GET /api/admin/orders/o1': () => answer(adminOrderSchema, testAdminOrder()),
      'POST /api/admin/orders/o1/retry-delivery': () => json(409, { error: adminMessages.retryNotAllowed }),
    });
    renderOrder();
    await screen.findByRole('table', { name: 'Timeline' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Retry delivery' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Retry delivery?' })).getByRole('button', { name: 'Retry delivery' }));
    expect(await screen.findByText(adminMessages.retryNotAllowed)).toBeTruthy();
  });

  it('shows an order in review with its risk, and approves it with a note: captured, and the keys go out', async () => {
    let approved = false;
    const risk = {
      rulesVersion: 2,
      score: 40,
      decision: 'review' as const,
      cancelRecommended: false,
      facts: [{ signal: 'provider-risk-elevated' as const, value: 'elevated', weight: 40, note: "The payment provider rates this payment's risk as elevated" }],
      verdict: null,
      decidedAt: null,
      decidedBy: null,
      decisionNote: null,
    };
    const calls = stubApi({
      'GET /api/admin/orders/o1': () =>
        answer(
          adminOrderSchema,
          approved
            ? testAdminOrder({ risk: { ...risk, verdict: 'approved', decidedAt: '2026-11-28T10:00:00Z', decidedBy: 'a1', decisionNote: 'Called the buyer' } })
            : testAdminOrder({ order: testOrder({ status: 'In review', deliveryStatus: 'Pending', statusNote: 'Payment authorised, not charged.' }), keys: [], risk }),
        ),
      'POST /api/admin/orders/o1/approve': () => {
        approved = true;
        return answer(adminOrderSchema, testAdminOrder());
      },
    });
    renderOrder();
    const panel = await screen.findByRole('region', { name: 'Risk' });
    expect(panel.textContent).toContain('40 of 100 · held for review');
    expect(within(panel).getByRole('list', { name: 'Facts behind the score' }).textContent).toContain("The payment provider rates this payment's risk as elevated (+40)");
    // An order in review is approved or cancelled; support's actions wait until it is decided.
    expect(screen.queryByRole('button', { name: 'Refund' })).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    const dialog = screen.getByRole('dialog', { name: 'Approve?' });
    await user.type(within(dialog).getByLabelText('Reason (optional)'), 'Called the buyer');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('The order was approved: its keys are on their way.')).toBeTruthy();
    expect(calls.find((call) => call.route === 'POST /api/admin/orders/o1/approve')?.body).toEqual({ note: 'Called the buyer' });
    await screen.findByText(/Approved by an admin/);
    expect(screen.getByRole('button', { name: 'Refund' })).toBeTruthy();
  });
});
