import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { adminUserSchema } from '@keystore/contract';
import { testAdminUser } from '../../test/admin-fixtures.ts';
import { answer } from '../../test/contract-fixtures.ts';
import { renderWithQueries, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { Toasts } from '../../ui/toasts.tsx';
import { AdminUserPage } from './user-page.tsx';

afterEach(resetTestState);

describe('a customer in the back office', () => {
  it('shows the profile, orders and sign-ins, and blocks the account only after the confirm dialog', async () => {
    let blocked = false;
    const calls = stubApi({
      'GET /api/admin/users/u1': () => answer(adminUserSchema, testAdminUser({ blocked })),
      'PATCH /api/admin/users/u1': () => {
        blocked = true;
        return answer(adminUserSchema, testAdminUser({ blocked }));
      },
    });
    renderWithQueries(
      <MemoryRouter initialEntries={['/admin/users/u1']}>
        <Routes>
          <Route path="/admin/users/:id" element={<AdminUserPage />} />
        </Routes>
        <Toasts />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'keymaster' })).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Orders' })).getByRole('link', { name: 'o1' }).getAttribute('href')).toBe('/admin/orders/o1');
    expect(within(screen.getByRole('table', { name: 'Sign-ins' })).getAllByRole('row')).toHaveLength(3);
    expect(screen.getByText('Key Newb')).toBeTruthy();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Block' }));
    const dialog = screen.getByRole('dialog', { name: 'Block this account?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((call) => call.route.startsWith('PATCH'))).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Block' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Block this account?' })).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('The account was blocked.')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Unblock' })).toBeTruthy();
    expect(calls.filter((call) => call.route.startsWith('PATCH'))).toEqual([{ route: 'PATCH /api/admin/users/u1', body: { blocked: true } }]);
  });
});
