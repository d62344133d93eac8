import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { adminGameListSchema, adminGameSchema, adminMessages, adminSettingsSchema, syncRunListSchema } from '@keystore/contract';
import { testAdminGame, testAdminGameList, testSyncRun } from '../../test/admin-fixtures.ts';
import { answer } from '../../test/contract-fixtures.ts';
import { json, renderWithQueries, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { Toasts } from '../../ui/toasts.tsx';
import { AdminCataloguePage } from './catalogue-page.tsx';

afterEach(resetTestState);

describe('the catalogue page', () => {
  it('starts a sync, hides a game, refuses a markup out of range and saves a price override', async () => {
    const calls = stubApi({
      'GET /api/admin/sync-runs': () => answer(syncRunListSchema, [testSyncRun()]),
      'POST /api/admin/sync': () => json(202, { message: adminMessages.syncStarted }),
      'GET /api/admin/settings': () => answer(adminSettingsSchema, { markupPercent: 10, sellerCommissionPercent: 10, sellerCommissionFixed: 0 }),
      'GET /api/admin/games': () => answer(adminGameListSchema, testAdminGameList([testAdminGame()])),
      // The list is fetched again after each change; the answer itself is not shown.
      'PATCH /api/admin/games/g1': () => answer(adminGameSchema, testAdminGame()),
    });
    renderWithQueries(
      <MemoryRouter>
        <AdminCataloguePage />
        <Toasts />
      </MemoryRouter>,
    );
    const runs = await screen.findByRole('table', { name: 'Supplier syncs' });
    expect(await within(runs).findByText('succeeded')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sync now' }));
    expect(await screen.findByText(adminMessages.syncStarted)).toBeTruthy();

    await user.click(await screen.findByRole('checkbox', { name: 'Hide Hades' }));
    expect(await screen.findByText('Hades: hidden.')).toBeTruthy();

    const markup = await screen.findByLabelText(/^Markup over the supplier’s price/);
    await user.clear(markup);
    await user.type(markup, '45');
    await user.click(screen.getByRole('button', { name: 'Save markup' }));
    expect(screen.getByText(adminMessages.markupRange)).toBeTruthy();

    await user.type(screen.getByLabelText(/^Price override for Hades/), '17.49');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Hades: price saved.')).toBeTruthy();
    expect(calls.filter((call) => !call.route.startsWith('GET')).map(({ route, body }) => [route, body])).toEqual([
      ['POST /api/admin/sync', undefined],
      ['PATCH /api/admin/games/g1', { hidden: true }],
      ['PATCH /api/admin/games/g1', { priceOverride: 17.49 }],
    ]);
  });
});
