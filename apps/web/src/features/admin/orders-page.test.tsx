import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adminOrderListSchema } from '@keystore/contract';
import { signIn } from '../../lib/session.ts';
import { testAdminOrderList, testAdminOrderRow } from '../../test/admin-fixtures.ts';
import { answer, testUser } from '../../test/contract-fixtures.ts';
import { renderWithQueries, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { AdminOrdersPage } from './orders-page.tsx';

afterEach(resetTestState);

function renderOrders(url = '/admin/orders') {
  renderWithQueries(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/admin/orders" element={<AdminOrdersPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('the orders table', () => {
  it('asks for the filters picked and for the next page, and exports what they select', async () => {
    const first = testAdminOrderRow({ _id: 'o1' });
    const paid = testAdminOrderList([testAdminOrderRow({ _id: 'o7', buyer: { id: 'u2', email: 'alice@example.org', username: 'alice' } })], { total: 30 });
    const calls = stubApi({
      'GET /api/admin/orders': () => answer(adminOrderListSchema, testAdminOrderList([first])),
      'GET /api/admin/orders?status=Paid&deliveryStatus=Not+delivered&q=alice&from=2026-11-01': () => answer(adminOrderListSchema, paid),
      'GET /api/admin/orders?status=Paid&deliveryStatus=Not+delivered&q=alice&from=2026-11-01&page=2': () =>
        answer(adminOrderListSchema, testAdminOrderList([testAdminOrderRow({ _id: 'o8' })], { total: 30, page: 2 })),
    });
    renderOrders();
    const table = await screen.findByRole('table', { name: 'Orders, newest first' });
    expect(within(table).getByRole('link', { name: 'o1' }).getAttribute('href')).toBe('/admin/orders/o1');
    expect(within(table).getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['Order', 'Placed', 'Buyer', 'Items', 'Status', 'Delivery', 'Amount']);

    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Status'), 'Paid');
    await user.selectOptions(screen.getByLabelText('Delivery'), 'Not delivered');
    await user.type(screen.getByLabelText('Search'), 'alice');
    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(await screen.findByRole('link', { name: 'o7' })).toBeTruthy();
    expect(screen.getByText('alice@example.org')).toBeTruthy();
    expect(screen.getByText('Page 1 of 2 · 30 in all')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe('/api/admin/orders.csv?status=Paid&deliveryStatus=Not+delivered&q=alice&from=2026-11-01');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('link', { name: 'o8' })).toBeTruthy();
    expect(screen.getByText('Page 2 of 2 · 30 in all')).toBeTruthy();
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('Paid');
    expect(calls.map((call) => call.route)).toEqual([
      'GET /api/admin/orders',
      'GET /api/admin/orders?status=Paid&deliveryStatus=Not+delivered&q=alice&from=2026-11-01',
      'GET /api/admin/orders?status=Paid&deliveryStatus=Not+delivered&q=alice&from=2026-11-01&page=2',
    ]);
  });
});

describe('the CSV export', () => {
  it('is fetched with the session’s token (a plain link would not send it) and saved as a file', async () => {
    // jsdom has no object URLs and does not download: the file's URL and the click on it are what a browser would save.
    const createObjectURL = vi.fn(() => 'blob:orders');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const calls = stubApi({
      'GET /api/admin/orders?status=Refunded': () => answer(adminOrderListSchema, testAdminOrderList([testAdminOrderRow({ status: 'Refunded' })])),
      'GET /api/admin/orders.csv?status=Refunded': () => new Response('id,status\r\no1,Refunded\r\n', { headers: { 'Content-Type': 'text/csv' } }),
    });
    act(() => signIn('admin-token', testUser({ role: 'admin' })));
    renderOrders('/admin/orders?status=Refunded');
    await userEvent.click(await screen.findByRole('link', { name: 'Export CSV' }));
    await vi.waitFor(() => expect(clicked).toHaveBeenCalled());
    expect(calls.at(-1)).toEqual({ route: 'GET /api/admin/orders.csv?status=Refunded', authorization: 'Bearer admin-token' });
    expect(createObjectURL).toHaveBeenCalledOnce();
    clicked.mockRestore();
  });
});
