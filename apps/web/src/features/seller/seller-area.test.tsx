import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import {
  apiKeyListSchema,
  createdApiKeySchema,
  keyUploadAnswerSchema,
  offerAnswerSchema,
  offerListSchema,
  pricePreviewSchema,
  sellerAnswerSchema,
  sellerKeyListSchema,
  sellerLedgerSchema,
  sellerSalesSchema,
  payoutListSchema,
  sellerSchema,
} from '@keystore/contract';
import { sellerMessages } from '@keystore/contract/seller-rules';
import { signIn } from '../../lib/session.ts';
import { answer, testUser } from '../../test/contract-fixtures.ts';
import { AuthDialogProbe, json, openAuthDialogView, renderWithQueries, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { testOffer, testPayout, testSeller } from '../../test/seller-fixtures.ts';
import { SellerArea } from './seller-area.tsx';

function renderArea() {
  renderWithQueries(
    <>
      <SellerArea />
      <AuthDialogProbe />
    </>,
  );
}

const signedIn = () => act(() => signIn('token-1', testUser()));
const openTab = (name: string) => fireEvent.click(screen.getByRole('tab', { name }));

describe('the seller area', () => {
  afterEach(resetTestState);

  it('asks a visitor to sign in', async () => {
    stubApi({});
    renderArea();
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(openAuthDialogView()).toBe('login');
  });

  it('checks the application as the server would, sends it, and then says it is being reviewed', async () => {
    const calls = stubApi({
      'GET /api/seller': () => json(404, { error: sellerMessages.notSeller }),
      'POST /api/sellers': () => answer(sellerAnswerSchema, { seller: testSeller({ status: 'pending' }) }, 201),
    });
    signedIn();
    renderArea();
    await userEvent.type(await screen.findByLabelText('Seller name'), 'K');
    await userEvent.type(screen.getByLabelText('Contact e-mail'), 'sales@keyshack.example');
    await userEvent.type(screen.getByLabelText('Country (two-letter code)'), 'Germany');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText(sellerMessages.nameInvalid)).toBeTruthy();
    expect(screen.getByText(sellerMessages.countryInvalid)).toBeTruthy();
    expect(calls.filter((call) => call.route === 'POST /api/sellers')).toEqual([]);

    await userEvent.type(screen.getByLabelText('Seller name'), 'eyShack');
    await userEvent.clear(screen.getByLabelText('Country (two-letter code)'));
    await userEvent.type(screen.getByLabelText('Country (two-letter code)'), 'de');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByRole('heading', { name: 'Application received' })).toBeTruthy();
    expect(calls.find((call) => call.route === 'POST /api/sellers')).toMatchObject({
      body: { name: 'KeyShack', contactEmail: 'sales@keyshack.example', country: 'DE' },
      authorization: 'Bearer token-1',
    });
  });

  it('adds an offer for a game found by search, showing what buyers pay, and pauses one', async () => {
    let offers = [testOffer({ _id: 'o1', title: 'Celeste' })];
    const calls = stubApi({
      'GET /api/seller': () => answer(sellerSchema, testSeller({ offers: 1, balance: { held: 5, available: 20.5, currency: 'EUR' } })),
      'GET /api/seller/offers': () => answer(offerListSchema, offers),
      'GET /api/games/quick-search?query=had': () => json(200, [{ _id: 'g1', title: 'Hades', platform: 'PC' }]),
      'GET /api/seller/price-preview?netPrice=12.5': () => answer(pricePreviewSchema, { netPrice: 12.5, commission: 1.25, price: 13.75 }),
      'POST /api/seller/offers': () => {
        offers = [...offers, testOffer({ _id: 'o2', netPrice: 12.5, price: 13.75 })];
        return answer(offerAnswerSchema, { offer: offers[1]! }, 201);
      },
      'PATCH /api/seller/offers/o1': () => answer(offerAnswerSchema, { offer: testOffer({ status: 'paused' }) }),
    });
    signedIn();
    renderArea();
    expect(await screen.findByText('€20.50')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Game'), 'had');
    await userEvent.click(await screen.findByRole('button', { name: 'Hades · PC' }));
    await userEvent.type(screen.getByLabelText('Your net price per key (€)'), '12.5');
    expect(await screen.findByText('Buyers pay €13.75 (commission €1.25)')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Add offer' }));
    const table = await screen.findByRole('table', { name: 'Your offers' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(calls.find((call) => call.route === 'POST /api/seller/offers')!.body).toEqual({ gameId: 'g1', netPrice: 12.5 });

    await userEvent.click(screen.getByRole('button', { name: 'Pause Celeste' }));
    await waitFor(() => expect(calls.find((call) => call.route === 'PATCH /api/seller/offers/o1')?.body).toEqual({ status: 'paused' }));
  });

  it('changes an offer’s net price in place, showing what buyers will pay, and refuses one out of range', async () => {
    let offers = [testOffer({ _id: 'o1', title: 'Celeste' })];
    const calls = stubApi({
      'GET /api/seller': () => answer(sellerSchema, testSeller({ offers: 1 })),
      'GET /api/seller/offers': () => answer(offerListSchema, offers),
      'GET /api/seller/price-preview?netPrice=10': () => answer(pricePreviewSchema, { netPrice: 10, commission: 1, price: 11 }),
      'GET /api/seller/price-preview?netPrice=12.5': () => answer(pricePreviewSchema, { netPrice: 12.5, commission: 1.25, price: 13.75 }),
      'PATCH /api/seller/offers/o1': () => {
        offers = [testOffer({ _id: 'o1', title: 'Celeste', netPrice: 12.5, price: 13.75 })];
        return answer(offerAnswerSchema, { offer: offers[0]! });
      },
    });
    signedIn();
    renderArea();
    await userEvent.click(await screen.findByRole('button', { name: 'Change price of Celeste' }));
    const field = screen.getByLabelText('New net price for Celeste (€)');
    expect(document.activeElement).toBe(field);
    expect((field as HTMLInputElement).value).toBe('10.00');
    expect(await screen.findByText('Buyers pay €11.00 (commission €1.00)')).toBeTruthy();

    await userEvent.clear(field);
    await userEvent.type(field, '0.05');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findAllByText(sellerMessages.netPriceInvalid)).length).toBeGreaterThan(0);
    expect(calls.filter((call) => call.route.startsWith('PATCH'))).toEqual([]);

    await userEvent.clear(field);
    await userEvent.type(field, '12,50');
    expect(await screen.findByText('Buyers pay €13.75 (commission €1.25)')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const table = screen.getByRole('table', { name: 'Your offers' });
    expect(await within(table).findByText('€13.75')).toBeTruthy();
    expect(within(table).getByText('€12.50')).toBeTruthy();
    expect(screen.queryByLabelText('New net price for Celeste (€)')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Change price of Celeste' }));
    expect(calls.filter((call) => call.route.startsWith('PATCH')).map(({ route, body }) => [route, body])).toEqual([['PATCH /api/seller/offers/o1', { netPrice: 12.5 }]]);
  });

  it('uploads pasted keys, counts what was added, and deletes an available key', async () => {
    let keys = [{ _id: 'k1', masked: '••••••ABCD', state: 'sold' }];
    const calls = stubApi({
      'GET /api/seller': () => answer(sellerSchema, testSeller()),
      'GET /api/seller/offers': () => answer(offerListSchema, [testOffer()]),
      'GET /api/seller/offers/o1/keys': () => answer(sellerKeyListSchema, keys),
      'POST /api/seller/offers/o1/keys': () => {
        keys = [...keys, { _id: 'k2', masked: '••••••WXYZ', state: 'available' }];
        return answer(keyUploadAnswerSchema, { added: 1, duplicates: 1, invalid: 1 });
      },
      'DELETE /api/seller/offers/o1/keys/k2': () => {
        keys = keys.slice(0, 1);
        return new Response(null, { status: 204 });
      },
    });
    signedIn();
    renderArea();
    await screen.findByRole('tab', { name: 'Keys' });
    openTab('Keys');
    expect(await screen.findByText('••••••ABCD')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Delete/ })).toBeNull();
    fireEvent.change(screen.getByLabelText('Keys, one a line'), { target: { value: 'AAAA-BBBB-WXYZ\n\nAAAA-BBBB-WXYZ\nx\n' } });
    await userEvent.click(screen.getByRole('button', { name: 'Upload keys' }));
    expect((await screen.findByText(/added ·/)).textContent).toBe('1 added · 1 duplicates · 1 invalid');
    expect(calls.find((call) => call.route === 'POST /api/seller/offers/o1/keys')!.body).toEqual({ keys: ['AAAA-BBBB-WXYZ', 'AAAA-BBBB-WXYZ', 'x'] });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete key ••••••WXYZ' }));
    await waitFor(() => expect(screen.queryByText('••••••WXYZ')).toBeNull());
  });

  it('lists sales, ledger entries and payouts', async () => {
    stubApi({
      'GET /api/seller': () => answer(sellerSchema, testSeller()),
      'GET /api/seller/offers': () => answer(offerListSchema, []),
      'GET /api/seller/sales?page=1': () =>
        answer(sellerSalesSchema, {
          items: [{ orderId: 'ord1', date: '2026-02-01T10:00:00Z', gameId: 'g1', title: 'Hades', quantity: 2, price: 11, net: 20, state: 'held' }],
          total: 1,
          page: 1,
          pageSize: 25,
        }),
      'GET /api/seller/ledger?page=1': () =>
        answer(sellerLedgerSchema, { items: [{ _id: 'e1', date: '2026-02-01T10:00:00Z', kind: 'sale', amount: 20, orderId: 'ord1' }], total: 1, page: 1, pageSize: 25 }),
      'GET /api/seller/payouts': () => answer(payoutListSchema, [testPayout({ status: 'paid', reference: 'SEPA-1', paidAt: '2026-02-03T00:00:00Z' })]),
    });
    signedIn();
    renderArea();
    await screen.findByRole('tab', { name: 'Sales & payouts' });
    openTab('Sales & payouts');
    const sales = await screen.findByRole('table', { name: 'Sales' });
    expect(within(sales).getByRole('rowheader', { name: 'Hades' }).parentElement!.textContent).toBe('2026-02-01Hades2€11.00€20.00held');
    expect(within(await screen.findByRole('table', { name: 'Ledger' })).getByText('Sale')).toBeTruthy();
    expect(within(await screen.findByRole('table', { name: 'Payouts' })).getByText('SEPA-1')).toBeTruthy();
  });

  it('shows a new API key once, lists the keys and revokes one once confirmed', async () => {
    let list = [{ _id: 'ak1', name: 'Old', createdAt: '2026-01-02T00:00:00Z', lastUsedAt: null }];
    const calls = stubApi({
      'GET /api/seller': () => answer(sellerSchema, testSeller()),
      'GET /api/seller/offers': () => answer(offerListSchema, []),
      'GET /api/seller/api-keys': () => answer(apiKeyListSchema, list),
      'POST /api/seller/api-keys': () => {
        list = [...list, { _id: 'ak2', name: 'Warehouse', createdAt: '2026-02-02T00:00:00Z', lastUsedAt: null }];
        return answer(createdApiKeySchema, { _id: 'ak2', name: 'Warehouse', key: 'ks_live_secret' }, 201);
      },
      'DELETE /api/seller/api-keys/ak1': () => {
        list = list.slice(1);
        return new Response(null, { status: 204 });
      },
    });
    signedIn();
    renderArea();
    await screen.findByRole('tab', { name: 'API keys' });
    openTab('API keys');
    await userEvent.type(await screen.findByLabelText('Name'), 'Warehouse');
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText('ks_live_secret')).toBeTruthy();
    expect(screen.getByText(/it is shown only this once/)).toBeTruthy();
    expect(calls.find((call) => call.route === 'POST /api/seller/api-keys')!.body).toEqual({ name: 'Warehouse' });
    await screen.findByRole('rowheader', { name: 'Warehouse' });
    await userEvent.click(screen.getByRole('button', { name: 'Revoke Old' }));
    const asking = screen.getByRole('dialog', { name: 'Revoke “Old”?' });
    await userEvent.click(within(asking).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.filter((call) => call.route.startsWith('DELETE'))).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Revoke Old' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Revoke “Old”?' })).getByRole('button', { name: 'Revoke key' }));
    await waitFor(() => expect(screen.queryByRole('rowheader', { name: 'Old' })).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.filter((call) => call.route.startsWith('DELETE')).map((call) => call.route)).toEqual(['DELETE /api/seller/api-keys/ak1']);
  });
});
