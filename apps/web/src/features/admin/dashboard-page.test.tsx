import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { adminStatsSchema } from '@keystore/contract';
import { testAdminStats } from '../../test/admin-fixtures.ts';
import { answer } from '../../test/contract-fixtures.ts';
import { renderWithQueries, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { AdminDashboardPage } from './dashboard-page.tsx';

// Only the clock's date is fixed: timers stay real for the queries and the user's events.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-25T12:00:00Z'));
});
afterEach(resetTestState);

describe('the dashboard', () => {
  it('shows the figures of the last 30 days, and asks for another period when picked', async () => {
    const calls = stubApi({
      'GET /api/admin/stats?from=2026-10-27&to=2026-11-25': () => answer(adminStatsSchema, testAdminStats()),
      'GET /api/admin/stats?from=2026-11-19&to=2026-11-25': () => answer(adminStatsSchema, testAdminStats({ today: 12, undelivered: 0 })),
    });
    renderWithQueries(
      <MemoryRouter>
        <AdminDashboardPage />
      </MemoryRouter>,
    );
    const card = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    await screen.findByText('Today’s revenue');
    expect(card('Today’s revenue')).toBe('€334.50');
    expect(card('Undelivered orders')).toBe('3');
    expect(card('Open support messages')).toBe('5');
    expect(card('Commission earned')).toBe('€87.25');
    expect(card('Owed to sellers')).toBe('€410.60');
    expect(card('Revenue, last 30 days')).toBe('€1,234.50');
    expect(card('New customers')).toBe('37 of 410');
    expect(card('Refunds')).toBe('2 · €39.98');
    expect(screen.getByRole('img', { name: 'Revenue per day, 3 days, €1,234.50 in all' })).toBeTruthy();
    expect(screen.getByRole('img', { name: /^Orders by status: Awaiting payment 2, In review 0, Paid 62, / })).toBeTruthy();
    const top = within(screen.getByRole('region', { name: 'Top games' })).getAllByRole('row');
    expect(top.map((row) => row.textContent)).toEqual(['GameUnitsRevenue', 'Hades30€600.00', 'Celeste12€240.00']);

    await userEvent.selectOptions(screen.getByLabelText('Period'), 'Last 7 days');
    await vi.waitFor(() => expect(card('Today’s revenue')).toBe('€12.00'));
    expect(card('Undelivered orders')).toBe('0');
    expect(calls.map((call) => call.route)).toEqual([
      'GET /api/admin/stats?from=2026-10-27&to=2026-11-25',
      'GET /api/admin/stats?from=2026-11-19&to=2026-11-25',
    ]);
  });
});
