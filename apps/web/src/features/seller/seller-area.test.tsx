import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
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
  sellerDeliveryMessages,
} from '@keystore/contract';
import { sellerMessages } from '@keystore/contract/seller-rules';
import { signIn } from '../../lib/session.ts';
import { answer, testUser } from '../../test/contract-fixtures.ts';
import { AuthDialogProbe, json, openAuthDialogView, renderWithQueries, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { testOffer, testPayout, testSeller } from '../../test/seller-fixtures.ts';
import { SellerArea } from './seller-area.tsx';

/** Where the router is, for the tests of the sections' addresses. */
function PathProbe() {
  return <output aria-label="Path">{useLocation().pathname}</output>;
}

/** The area as the router mounts it, at /seller/* (one page, routing its sections itself). */
function renderArea(path = '/seller') {
  renderWithQueries(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/seller/*" element={<SellerArea />} />
      </Routes>
      <PathProbe />
      <AuthDialogProbe />
    </MemoryRouter>,
  );
}

const signedIn = () => act(() => signIn('token-1', testUser()));
const openTab = (name: string) => fireEvent.click(screen.getByRole('tab', { name }));
const path = () => screen.getByRole('status', { name: 'Path' }).textContent;

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

  it('tells a pause after failures from the seller’s own', async () => {
    stubApi({
      'GET /api/seller': () => answer(sellerSchema, testSeller({ offers: 2 })),
      'GET /api/seller/offers': () =>
        answer(offerListSchema, [
          testOffer({ _id: 'o1', title: 'Celeste', status: 'paused', delivery: 'declared', pausedAfterFailures: true }),
          testOffer({ _id: 'o2', title: 'Hades', status: 'paused' }),
        ]),
    });
    signedIn();
    renderArea();
    const table = await screen.findByRole('table', { name: 'Your offers' });
    const row = (title: string) => within(table).getByRole('rowheader', { name: title }).parentElement!;
    await waitFor(() => expect(within(row('Celeste')).getByText('Paused after failures')).toBeTruthy());
    expect(within(row('Hades')).getByText('Paused', { exact: true })).toBeTruthy();
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
    // A key is made only with the password typed again (issue 30).
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please enter your password');
    await userEvent.type(screen.getByLabelText('Your password'), 'Secret-pass1');
    await userEvent.type(screen.getByLabelText('Authenticator code (if you turned the app on)'), '123 456');
    await userEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText('ks_live_secret')).toBeTruthy();
    expect(screen.getByText(/it is shown only this once/)).toBeTruthy();
    expect(calls.find((call) => call.route === 'POST /api/seller/api-keys')!.body).toEqual({ name: 'Warehouse', password: 'Secret-pass1', code: '123456' });
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

  it('shows the score with its four figures, and each section at its own address, the arrow keys moving between them', async () => {
    stubApi({
      'GET /api/seller': () =>
        answer(sellerSchema, testSeller({ score: { value: 94, onFirstTry: 0.975, p90ProvideSeconds: 4.25, claimsPer100: 0.4, refunds: 1, deliveries: 52 } })),
      'GET /api/seller/claims': () => json(200, []),
      'GET /api/seller/sales?page=1': () => answer(sellerSalesSchema, { items: [], total: 0, page: 1, pageSize: 25 }),
      'GET /api/seller/ledger?page=1': () => answer(sellerLedgerSchema, { items: [], total: 0, page: 1, pageSize: 25 }),
      'GET /api/seller/payouts': () => answer(payoutListSchema, []),
    });
    signedIn();
    renderArea('/seller/claims');
    const claimsTab = await screen.findByRole('tab', { name: 'Claims' });
    expect(claimsTab.getAttribute('aria-selected')).toBe('true');
    expect(screen.getAllByRole('tab').filter((tab) => tab.tabIndex === 0)).toEqual([claimsTab]);
    expect(await screen.findByText('No claims: no buyer has reported a problem with your keys.')).toBeTruthy();
    const account = screen.getByLabelText('Your seller account');
    expect(within(account).getByText('Score').nextElementSibling!.textContent).toBe('94/100');
    const figures = screen.getByRole('region', { name: 'How your score is made' });
    expect([...figures.querySelectorAll('dl > div')].map((figure) => figure.textContent)).toEqual([
      'Delivered on the first try98 %',
      'Keys handed over within (p90)4.3 s',
      'Valid claims per 100 keys0.4',
      'Refunds1',
    ]);
    expect(within(figures).getByText(/From your 52 deliveries of the last 90 days/)).toBeTruthy();

    claimsTab.focus();
    fireEvent.keyDown(claimsTab, { key: 'ArrowRight' });
    await waitFor(() => expect(path()).toBe('/seller/sales'));
    expect(screen.getByRole('tab', { name: 'Sales & payouts' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Sales & payouts' }));
    expect(await screen.findByText('No sales yet.')).toBeTruthy();
  });

  it('takes an unknown section’s address back to the offers', async () => {
    stubApi({ 'GET /api/seller': () => answer(sellerSchema, testSeller()), 'GET /api/seller/offers': () => answer(offerListSchema, []) });
    signedIn();
    renderArea('/seller/nowhere');
    await waitFor(() => expect(path()).toBe('/seller'));
    expect((await screen.findByRole('tab', { name: 'Offers' })).getAttribute('aria-selected')).toBe('true');
  });

  it('switches an offer to declared stock, showing its delivery, its stock and the breaker’s badge, and the server’s refusal without a webhook', async () => {
    let offers = [testOffer({ _id: 'o1', title: 'Celeste' })];
    let webhook = false;
    const calls = stubApi({
      'GET /api/seller': () => answer(sellerSchema, testSeller({ offers: 1 })),
      'GET /api/seller/offers': () => answer(offerListSchema, offers),
      'GET /api/seller/webhook': () => json(200, null),
      'PATCH /api/seller/offers/o1': () => {
        if (!webhook) return json(409, { error: sellerDeliveryMessages.declaredNeedsWebhook });
        offers = [testOffer({ _id: 'o1', title: 'Celeste', delivery: 'declared', declaredStock: 50, stock: 50, hiddenUntil: '2026-02-01T10:45:00Z' })];
        return answer(offerAnswerSchema, { offer: offers[0]! });
      },
    });
    signedIn();
    renderArea();
    const table = await screen.findByRole('table', { name: 'Your offers' });
    expect(within(table).getByRole('rowheader', { name: 'Celeste' }).parentElement!.textContent).toContain('Uploaded keys');
    await userEvent.click(screen.getByRole('button', { name: 'Delivery of Celeste' }));
    const dialog = screen.getByRole('dialog', { name: 'Delivery of Celeste' });
    await userEvent.click(within(dialog).getByLabelText(/Declared stock —/));
    expect(await within(dialog).findByText(/Declared stock needs your webhook/)).toBeTruthy();
    const stock = within(dialog).getByLabelText('Declared stock (0–100,000 keys)');
    await userEvent.clear(stock);
    await userEvent.type(stock, '100001');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save delivery' }));
    expect(await within(dialog).findByText(sellerDeliveryMessages.declaredStockInvalid)).toBeTruthy();
    expect(calls.filter((call) => call.route.startsWith('PATCH'))).toEqual([]);

    await userEvent.clear(stock);
    await userEvent.type(stock, '50');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save delivery' }));
    expect(await within(dialog).findByText(sellerDeliveryMessages.declaredNeedsWebhook)).toBeTruthy();

    webhook = true;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save delivery' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const row = within(table).getByRole('rowheader', { name: 'Celeste' }).parentElement!;
    await waitFor(() => expect(row.textContent).toContain('Declared stock50 declared'));
    expect(within(row).getByText(/Hidden until/).textContent).toMatch(/^Hidden until \d\d:\d\d$/);
    expect(calls.filter((call) => call.route.startsWith('PATCH')).map((call) => call.body)).toEqual([
      { delivery: 'declared', declaredStock: 50 },
      { delivery: 'declared', declaredStock: 50 },
    ]);
  });
});
