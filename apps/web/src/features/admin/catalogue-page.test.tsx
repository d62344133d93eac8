import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { adminGameListSchema, adminGameSchema, adminMessages, adminSettingsSchema, SCORE_FLOOR_MESSAGE, sellerMessages, syncRunListSchema } from '@keystore/contract';
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
      'GET /api/admin/settings': () => answer(adminSettingsSchema, { markupPercent: 10, sellerCommissionPercent: 10, sellerCommissionFixed: 0, sellerScoreFloor: 80, guestMaxOrder: 150, guestMaxCopies: 2, guestOrdersPerDay: 3, secondFactorForAdmins: false, secondFactorForSellers: false }),
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

  it('saves the sellers’ default commission next to the markup, refusing one out of range', async () => {
    const calls = stubApi({
      'GET /api/admin/sync-runs': () => answer(syncRunListSchema, []),
      'GET /api/admin/settings': () => answer(adminSettingsSchema, { markupPercent: 10, sellerCommissionPercent: 10, sellerCommissionFixed: 0, sellerScoreFloor: 80, guestMaxOrder: 150, guestMaxCopies: 2, guestOrdersPerDay: 3, secondFactorForAdmins: false, secondFactorForSellers: false }),
      'GET /api/admin/games': () => answer(adminGameListSchema, testAdminGameList([])),
      'PATCH /api/admin/settings': ({ body }) => answer(adminSettingsSchema, { markupPercent: 10, sellerCommissionPercent: 10, sellerCommissionFixed: 0, sellerScoreFloor: 80, guestMaxOrder: 150, guestMaxCopies: 2, guestOrdersPerDay: 3, secondFactorForAdmins: false, secondFactorForSellers: false, ...(body as object) }),
    });
    renderWithQueries(
      <MemoryRouter>
        <AdminCataloguePage />
        <Toasts />
      </MemoryRouter>,
    );
    const form = await screen.findByRole('form', { name: 'Sellers’ default commission' });
    const percent = within(form).getByLabelText(/^Percent of the net price/);
    const fixed = within(form).getByLabelText('Plus per key (€)');
    expect([(percent as HTMLInputElement).value, (fixed as HTMLInputElement).value]).toEqual(['10', '0.00']);
    const user = userEvent.setup();
    await user.clear(percent);
    await user.type(percent, '51');
    await user.click(within(form).getByRole('button', { name: 'Save commission' }));
    expect(within(form).getByText(sellerMessages.commissionInvalid)).toBeTruthy();

    await user.clear(percent);
    await user.type(percent, '12');
    await user.clear(fixed);
    await user.type(fixed, '0.25');
    await user.click(within(form).getByRole('button', { name: 'Save commission' }));
    expect(await screen.findByText('The default commission applies at once to sellers without one of their own.')).toBeTruthy();
    expect(calls.filter((call) => call.route.startsWith('PATCH')).map(({ route, body }) => [route, body])).toEqual([
      ['PATCH /api/admin/settings', { sellerCommissionPercent: 12, sellerCommissionFixed: 0.25 }],
    ]);
  });

  it('saves the sellers’ score floor, refusing one out of range', async () => {
    const calls = stubApi({
      'GET /api/admin/sync-runs': () => answer(syncRunListSchema, []),
      'GET /api/admin/settings': () => answer(adminSettingsSchema, { markupPercent: 10, sellerCommissionPercent: 10, sellerCommissionFixed: 0, sellerScoreFloor: 80, guestMaxOrder: 150, guestMaxCopies: 2, guestOrdersPerDay: 3, secondFactorForAdmins: false, secondFactorForSellers: false }),
      'GET /api/admin/games': () => answer(adminGameListSchema, testAdminGameList([])),
      'PATCH /api/admin/settings': ({ body }) => answer(adminSettingsSchema, { markupPercent: 10, sellerCommissionPercent: 10, sellerCommissionFixed: 0, sellerScoreFloor: 80, guestMaxOrder: 150, guestMaxCopies: 2, guestOrdersPerDay: 3, secondFactorForAdmins: false, secondFactorForSellers: false, ...(body as object) }),
    });
    renderWithQueries(
      <MemoryRouter>
        <AdminCataloguePage />
        <Toasts />
      </MemoryRouter>,
    );
    const form = await screen.findByRole('form', { name: 'Seller score floor' });
    const floor = within(form).getByLabelText('Seller score floor (0–100)');
    expect((floor as HTMLInputElement).value).toBe('80');
    const user = userEvent.setup();
    await user.clear(floor);
    await user.type(floor, '101');
    await user.click(within(form).getByRole('button', { name: 'Save floor' }));
    expect(within(form).getByText(SCORE_FLOOR_MESSAGE)).toBeTruthy();

    await user.clear(floor);
    await user.type(floor, '85');
    await user.click(within(form).getByRole('button', { name: 'Save floor' }));
    expect(await screen.findByText('Sellers scoring below 85 leave the store at once.')).toBeTruthy();
    expect(calls.filter((call) => call.route.startsWith('PATCH')).map(({ body }) => body)).toEqual([{ sellerScoreFloor: 85 }]);
  });

  it('saves the guest limits, refusing one that is not a whole number in range', async () => {
    const calls = stubApi({
      'GET /api/admin/sync-runs': () => answer(syncRunListSchema, []),
      'GET /api/admin/settings': () => answer(adminSettingsSchema, { markupPercent: 10, sellerCommissionPercent: 10, sellerCommissionFixed: 0, sellerScoreFloor: 80, guestMaxOrder: 150, guestMaxCopies: 2, guestOrdersPerDay: 3, secondFactorForAdmins: false, secondFactorForSellers: false }),
      'GET /api/admin/games': () => answer(adminGameListSchema, testAdminGameList([])),
      'PATCH /api/admin/settings': ({ body }) => answer(adminSettingsSchema, { markupPercent: 10, sellerCommissionPercent: 10, sellerCommissionFixed: 0, sellerScoreFloor: 80, guestMaxOrder: 150, guestMaxCopies: 2, guestOrdersPerDay: 3, secondFactorForAdmins: false, secondFactorForSellers: false, ...(body as object) }),
    });
    renderWithQueries(
      <MemoryRouter>
        <AdminCataloguePage />
        <Toasts />
      </MemoryRouter>,
    );
    const form = await screen.findByRole('form', { name: 'Guest checkout' });
    const copies = within(form).getByLabelText('Copies of one game per guest order (0–10)');
    expect((within(form).getByLabelText('Most a guest order may cost (€, 0–10000)') as HTMLInputElement).value).toBe('150');
    const user = userEvent.setup();
    await user.clear(copies);
    await user.type(copies, '2.5');
    await user.click(within(form).getByRole('button', { name: 'Save guest limits' }));
    expect(within(form).getByText(adminMessages.guestLimitRange)).toBeTruthy();
    await user.clear(copies);
    await user.type(copies, '4');
    await user.click(within(form).getByRole('button', { name: 'Save guest limits' }));
    expect(await screen.findByText('The guest limits apply to the next guest order.')).toBeTruthy();
    expect(calls.filter((call) => call.route.startsWith('PATCH')).map(({ body }) => body)).toEqual([{ guestMaxOrder: 150, guestMaxCopies: 4, guestOrdersPerDay: 3 }]);
  });
});
