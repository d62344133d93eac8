import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { adminSellerListSchema, adminSellerSchema, sellerMessages, type AdminSeller } from '@keystore/contract';
import { answer } from '../../test/contract-fixtures.ts';
import { renderWithQueries, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { testAdminSeller } from '../../test/seller-fixtures.ts';
import { Toasts } from '../../ui/toasts.tsx';
import { AdminSellersPage } from './sellers-page.tsx';

afterEach(resetTestState);

const list = (items: AdminSeller[]) => answer(adminSellerListSchema, { items, total: items.length, page: 1, pageSize: 25 });
const applicant = () => testAdminSeller({ _id: 's2', name: 'Pixel Keys', contactEmail: 'shop@pixel.example', country: 'FR', status: 'pending', userId: 'u2' });
const house = () =>
  testAdminSeller({ _id: 'house', name: 'Keystore', contactEmail: 'supplier@keystore.example', userId: null, house: true, commission: { percent: 0, fixed: 0 } });

function renderSellers(path = '/admin/sellers') {
  renderWithQueries(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/admin/sellers" element={<AdminSellersPage />} />
      </Routes>
      <Toasts />
    </MemoryRouter>,
  );
}

describe('the sellers page', () => {
  it('lists the sellers with their terms, filters them by status and search, and approves an applicant only after the confirm dialog', async () => {
    let pending = true;
    const calls = stubApi({
      'GET /api/admin/sellers': () =>
        list([
          testAdminSeller({
            customCommission: true,
            commission: { percent: 8.5, fixed: 0.3 },
            holdDays: 7,
            score: { value: 94, onFirstTry: 0.98, p90ProvideSeconds: 3, claimsPer100: 0.5, refunds: 0, deliveries: 41 },
          }),
          applicant(),
          house(),
        ]),
      'GET /api/admin/sellers?status=pending': () => list(pending ? [applicant()] : []),
      'GET /api/admin/sellers?status=pending&q=pixel': () => list(pending ? [applicant()] : []),
      'PATCH /api/admin/sellers/s2': () => {
        pending = false;
        return answer(adminSellerSchema, { ...applicant(), status: 'active' });
      },
    });
    renderSellers();
    const table = await screen.findByRole('table', { name: 'Sellers' });
    expect(within(table).getByRole('rowheader', { name: 'KeyShack' }).parentElement!.textContent).toBe(
      'KeyShack Activesales@keyshack.example DE8.5 % + €0.30700' + '9441 deliveries' + '€0.00€0.002026-01-01 00:00SuspendEdit terms',
    );
    // The house has no score of its own.
    expect([...within(table).getByRole('rowheader', { name: /Keystore/ }).parentElement!.children].map((cell) => cell.textContent)[7]).toBe('—');
    expect(within(table).getByRole('rowheader', { name: 'Pixel Keys' }).parentElement!.textContent).toContain('10 % (store default)');
    // The house seller (the supplier's feed) is listed, but has no status or terms to change.
    expect(within(table).getByText('The supplier’s feed')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Suspend Keystore' })).toBeNull();

    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Show'), 'Pending');
    await user.type(screen.getByLabelText('Search'), 'pixel');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('Pixel Keys');
    expect(screen.queryByText('KeyShack')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Approve Pixel Keys' }));
    const dialog = screen.getByRole('dialog', { name: 'Approve Pixel Keys?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((call) => call.route.startsWith('PATCH'))).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Approve Pixel Keys' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Approve Pixel Keys?' })).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Pixel Keys was approved.')).toBeTruthy();
    expect(await screen.findByText('No seller matches.')).toBeTruthy();
    expect(calls.map(({ route, body }) => [route, body])).toEqual([
      ['GET /api/admin/sellers', undefined],
      ['GET /api/admin/sellers?status=pending', undefined],
      ['GET /api/admin/sellers?status=pending&q=pixel', undefined],
      ['PATCH /api/admin/sellers/s2', { status: 'active' }],
      ['GET /api/admin/sellers?status=pending&q=pixel', undefined],
    ]);
  });

  it('sets a seller’s own commission and hold days, checked as the server checks them, then puts it back on the store’s default', async () => {
    let seller = testAdminSeller();
    const calls = stubApi({
      'GET /api/admin/sellers': () => list([seller]),
      'PATCH /api/admin/sellers/s1': ({ body }) => {
        const patch = body as { commissionPercent: number | null; commissionFixed: number | null; holdDays: number };
        seller = testAdminSeller({
          customCommission: patch.commissionPercent !== null,
          commission: { percent: patch.commissionPercent ?? 10, fixed: patch.commissionFixed ?? 0 },
          holdDays: patch.holdDays,
        });
        return answer(adminSellerSchema, seller);
      },
    });
    renderSellers();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit terms of KeyShack' }));
    let dialog = screen.getByRole('dialog', { name: 'Terms of KeyShack' });
    expect((within(dialog).getByLabelText(/^The store’s default/) as HTMLInputElement).checked).toBe(true);
    await user.click(within(dialog).getByLabelText('Its own'));
    const percent = within(dialog).getByLabelText(/^Percent of the net price/);
    await user.clear(percent);
    await user.type(percent, '60');
    const fixed = within(dialog).getByLabelText('Plus per key (€)');
    await user.clear(fixed);
    await user.type(fixed, '0.5');
    const holdDays = within(dialog).getByLabelText(/^Days a sale’s money is held/);
    await user.clear(holdDays);
    await user.type(holdDays, '91');
    await user.click(within(dialog).getByRole('button', { name: 'Review' }));
    expect(within(dialog).getByText(sellerMessages.commissionInvalid)).toBeTruthy();
    expect(within(dialog).getByText(sellerMessages.holdDaysInvalid)).toBeTruthy();

    await user.clear(percent);
    await user.type(percent, '12.5');
    await user.clear(holdDays);
    await user.type(holdDays, '7');
    await user.click(within(dialog).getByRole('button', { name: 'Review' }));
    const confirm = screen.getByRole('dialog', { name: 'Change the terms of KeyShack?' });
    expect(within(confirm).getByText(/^Commission: 12.5 % \+ €0.50 per key. Money held 7 days after a sale./)).toBeTruthy();
    expect(calls.filter((call) => call.route.startsWith('PATCH'))).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('KeyShack: terms saved.')).toBeTruthy();
    expect(await screen.findByText('12.5 % + €0.50')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Edit terms of KeyShack' }));
    dialog = screen.getByRole('dialog', { name: 'Terms of KeyShack' });
    await user.click(within(dialog).getByLabelText(/^The store’s default/));
    await user.click(within(dialog).getByRole('button', { name: 'Review' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Change the terms of KeyShack?' })).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('(store default)')).toBeTruthy();
    expect(calls.filter((call) => call.route.startsWith('PATCH')).map(({ body }) => body)).toEqual([
      { commissionPercent: 12.5, commissionFixed: 0.5, holdDays: 7 },
      { commissionPercent: null, commissionFixed: null, holdDays: 7 },
    ]);
  });
});
