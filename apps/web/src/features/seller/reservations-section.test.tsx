import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { reservationPageSchema, sellerSchema, type Reservation } from '@keystore/contract';
import { signIn } from '../../lib/session.ts';
import { answer, testUser } from '../../test/contract-fixtures.ts';
import { renderWithQueries, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { testReservation, testSeller } from '../../test/seller-fixtures.ts';
import { SellerArea } from './seller-area.tsx';

afterEach(resetTestState);

const page = (items: Reservation[], number: number, total: number) => answer(reservationPageSchema, { items, total, page: number, pageSize: 25 });
const failed = () =>
  testReservation({
    _id: 'r2',
    title: 'Celeste',
    quantity: 2,
    state: 'failed',
    createdAt: '2026-02-02T08:00:00Z',
    moves: [
      { at: '2026-02-02T08:00:00Z', from: null, to: 'requested', reason: null },
      { at: '2026-02-02T08:00:10Z', from: 'requested', to: 'failed', reason: 'no answer within 10 s' },
    ],
    attempts: [{ at: '2026-02-02T08:00:00Z', type: 'reserve', status: null, error: 'timed out', durationMs: 10000 }],
  });

describe('the reservations section', () => {
  it('pages the reservations, and shows a reservation’s calls and changes when asked', async () => {
    const calls = stubApi({
      'GET /api/seller': () => answer(sellerSchema, testSeller()),
      'GET /api/seller/reservations?page=1': () => page([failed()], 1, 26),
      'GET /api/seller/reservations?page=2': () => page([testReservation()], 2, 26),
    });
    act(() => signIn('token-1', testUser()));
    renderWithQueries(
      <MemoryRouter initialEntries={['/seller/reservations']}>
        <Routes>
          <Route path="/seller/*" element={<SellerArea />} />
        </Routes>
      </MemoryRouter>,
    );
    const table = await screen.findByRole('table', { name: 'Reservations' });
    const row = within(table).getByRole('rowheader', { name: 'Celeste' }).parentElement!;
    expect([...row.children].slice(1, 5).map((cell) => cell.textContent)).toEqual(['Celeste', '2', '€10.00', 'Failed']);
    const toggle = within(row).getByRole('button', { name: /^Show 1 call of Celeste/ });
    const details = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(details.hidden).toBe(true);

    const user = userEvent.setup();
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(details.hidden).toBe(false);
    const attempts = within(details).getByRole('region', { name: 'Calls to your endpoint for Celeste' });
    expect(within(attempts).getByRole('listitem').textContent).toMatch(/· Reserve · no answer · 10000 mstimed out$/);
    const moves = within(within(details).getByRole('region', { name: 'Changes of the reservation of Celeste' })).getAllByRole('listitem');
    expect(moves.map((move) => move.textContent!.replace(/^.*? · /, ''))).toEqual(['Requested', 'Requested → Failedno answer within 10 s']);
    expect(details.textContent).toContain('Reservation r2 · order ord1');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await within(table).findByRole('rowheader', { name: 'Hades' })).toBeTruthy();
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
    expect(calls.map((call) => call.route)).toEqual(['GET /api/seller', 'GET /api/seller/reservations?page=1', 'GET /api/seller/reservations?page=2']);
  });
});
