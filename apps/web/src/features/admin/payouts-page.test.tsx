import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ledgerBalanceSchema, payoutListSchema, payoutRunSchema, payoutSchema, sellerMessages, type Payout } from '@keystore/contract';
import { answer } from '../../test/contract-fixtures.ts';
import { json, renderWithQueries, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { testPayout } from '../../test/seller-fixtures.ts';
import { Toasts } from '../../ui/toasts.tsx';
import { AdminPayoutsPage } from './payouts-page.tsx';

afterEach(resetTestState);

const paid = (payout: Payout, reference: string) => ({ ...payout, status: 'paid' as const, reference, paidAt: '2026-02-05T09:30:00Z' });
const balance = () =>
  answer(ledgerBalanceSchema, {
    accounts: [
      { account: 'payments', balance: -110 },
      { account: 'commission', balance: 10 },
      { account: 'seller:s1:available', balance: 57.5 },
      { account: 'payouts', balance: 42.5 },
    ],
    total: 0,
    currency: 'EUR',
  });

function renderPayouts() {
  renderWithQueries(
    <MemoryRouter>
      <AdminPayoutsPage />
      <Toasts />
    </MemoryRouter>,
  );
}

describe('the payouts page', () => {
  it('shows the payouts and the trial balance, runs payouts after the confirm dialog and shows what the run made', async () => {
    let payouts = [testPayout(), paid(testPayout({ _id: 'p0', amount: 30, createdAt: '2026-01-15T00:00:00Z' }), 'SEPA-0')];
    const made = testPayout({ _id: 'p2', sellerId: 's2', sellerName: 'Pixel Keys', amount: 25, createdAt: '2026-02-06T00:00:00Z' });
    const calls = stubApi({
      'GET /api/admin/payouts': () => answer(payoutListSchema, payouts),
      'GET /api/admin/ledger/balance': balance,
      'POST /api/admin/payouts/run': () => {
        payouts = [made, ...payouts];
        return answer(payoutRunSchema, { created: [made] });
      },
    });
    renderPayouts();
    const table = await screen.findByRole('table', { name: 'Payouts' });
    expect(within(table).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'SellerAmountStatusCreatedPaidBank referenceAction',
      'KeyShack€42.50Pending2026-02-01 00:00——Mark paid',
      'KeyShack€30.00Paid2026-01-15 00:002026-02-05 09:30SEPA-0',
    ]);
    const trial = await screen.findByRole('table', { name: 'Trial balance' });
    expect(within(trial).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'AccountBalance',
      'payments-€110.00',
      'commission€10.00',
      'seller:s1:available€57.50',
      'payouts€42.50',
      'Total Balanced€0.00',
    ]);

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Run payouts' }));
    const dialog = screen.getByRole('dialog', { name: 'Run payouts?' });
    expect(calls.filter((call) => call.route.startsWith('POST'))).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Run payouts' }));
    expect(await screen.findByText('1 payout created.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('1 payout made, to be transferred:')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Created by this run' })).getByRole('rowheader', { name: 'Pixel Keys' }).parentElement!.textContent).toBe(
      'Pixel Keys€25.00',
    );
    expect(await within(table).findByRole('button', { name: 'Mark paid: €25.00 to Pixel Keys' })).toBeTruthy();
    // The run moved money: the payouts and the ledger are fetched again.
    expect(calls.map((call) => call.route)).toEqual([
      'GET /api/admin/payouts',
      'GET /api/admin/ledger/balance',
      'POST /api/admin/payouts/run',
      'GET /api/admin/payouts',
      'GET /api/admin/ledger/balance',
    ]);
  });

  it('says so when no payout was due', async () => {
    stubApi({
      'GET /api/admin/payouts': () => answer(payoutListSchema, []),
      'GET /api/admin/ledger/balance': balance,
      'POST /api/admin/payouts/run': () => answer(payoutRunSchema, { created: [] }),
    });
    renderPayouts();
    expect(await screen.findByText('No payouts yet.')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Run payouts' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Run payouts?' })).getByRole('button', { name: 'Run payouts' }));
    expect(await screen.findByText('No payout was due.')).toBeTruthy();
    expect(screen.getByText('No payout was made: no seller’s available balance reached the minimum.')).toBeTruthy();
  });

  it('marks a payout paid with its bank reference, which it requires', async () => {
    let payouts = [testPayout()];
    const calls = stubApi({
      'GET /api/admin/payouts': () => answer(payoutListSchema, payouts),
      'GET /api/admin/ledger/balance': balance,
      'POST /api/admin/payouts/p1/paid': ({ body }) => {
        payouts = [paid(testPayout(), (body as { reference: string }).reference)];
        return answer(payoutSchema, payouts[0]!);
      },
    });
    renderPayouts();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Mark paid: €42.50 to KeyShack' }));
    const dialog = screen.getByRole('dialog', { name: 'Mark this payout paid?' });
    await user.click(within(dialog).getByRole('button', { name: 'Mark paid' }));
    expect(within(dialog).getByText(sellerMessages.referenceInvalid)).toBeTruthy();
    expect(calls.filter((call) => call.route.startsWith('POST'))).toEqual([]);

    await user.type(within(dialog).getByLabelText('Bank reference'), ' SEPA-77 ');
    await user.click(within(dialog).getByRole('button', { name: 'Mark paid' }));
    expect(await screen.findByText('€42.50 to KeyShack: marked paid.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByText('SEPA-77')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Mark paid/ })).toBeNull();
    expect(calls.filter((call) => call.route.startsWith('POST')).map(({ route, body }) => [route, body])).toEqual([
      ['POST /api/admin/payouts/p1/paid', { reference: 'SEPA-77' }],
    ]);
  });

  it('shows the server’s 409 text when the payout was already marked paid', async () => {
    stubApi({
      'GET /api/admin/payouts': () => answer(payoutListSchema, [testPayout()]),
      'GET /api/admin/ledger/balance': balance,
      'POST /api/admin/payouts/p1/paid': () => json(409, { error: sellerMessages.payoutAlreadyPaid }),
    });
    renderPayouts();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Mark paid: €42.50 to KeyShack' }));
    await user.type(screen.getByLabelText('Bank reference'), 'SEPA-77');
    await user.click(within(screen.getByRole('dialog', { name: 'Mark this payout paid?' })).getByRole('button', { name: 'Mark paid' }));
    expect(await screen.findByText(sellerMessages.payoutAlreadyPaid)).toBeTruthy();
  });
});
