import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { claimAnswerSchema, claimListSchema, orderKeysSchema, orderSchema, type Claim, type Order } from '@keystore/contract';
import { CLAIM_STATE_LABELS } from '@keystore/contract/claim-rules';
import { orderMessages } from '@keystore/contract/messages';
import { addToCart, clearCart, useCart } from '../../lib/cart.ts';
import { signIn } from '../../lib/session.ts';
import { answer, testOrder, testOrderLine, testUser } from '../../test/contract-fixtures.ts';
import { AuthDialogProbe, json, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { testClaim } from '../../test/seller-fixtures.ts';
import { ORDER_POLL_MS, OrderPage } from './order-page.tsx';

/** A paid order of one Hades and one Celeste key, delivered, neither key revealed yet. */
function paidOrder(overrides: Partial<Order> = {}): Order {
  return testOrder({
    status: 'Paid',
    deliveryStatus: 'Delivered',
    createdAt: '2026-11-22T08:00:00Z',
    paidAt: '2026-11-22T08:01:00Z',
    deliveredAt: '2026-11-22T08:01:05Z',
    lines: [testOrderLine({ platform: 'Steam', unitPrice: 12.5 }), testOrderLine({ gameId: 'g2', title: 'Celeste', offerId: 'hg2', unitPrice: 9 })],
    keys: [
      { purchaseId: 'k1', gameId: 'g1', title: 'Hades', revealed: false },
      { purchaseId: 'k2', gameId: 'g2', title: 'Celeste', revealed: false },
    ],
    ...overrides,
  });
}

/** What the cart holds, so a test can tell the page left it alone or emptied it. */
function CartCount() {
  return <output aria-label="Cart">{useCart().items.length}</output>;
}

function renderOrder(path = '/orders/o1?token=tok-1') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/orders/:id" element={<OrderPage />} />
        </Routes>
        <AuthDialogProbe />
        <CartCount />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const factOf = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;

afterEach(() => {
  resetTestState();
  clearCart();
});

describe('the order page', () => {
  it("shows a guest's order by its link and reveals one key with the token, leaving the others unrevealed", async () => {
    const user = userEvent.setup();
    const calls = stubApi({
      'GET /api/orders/o1?token=tok-1': () => answer(orderSchema, paidOrder()),
      'GET /api/orders/o1/keys?token=tok-1&keyId=k1': () => answer(orderKeysSchema, { keys: [{ purchaseId: 'k1', gameId: 'g1', title: 'Hades', key: 'HADES-1111-2222' }] }),
      'GET /api/orders/o1/claims?token=tok-1': () => answer(claimListSchema, []),
    });
    renderOrder();
    expect(await screen.findByRole('heading', { level: 1, name: 'Your order' })).toBeTruthy();
    expect(factOf('Payment')).toBe('Paid');
    expect(factOf('Delivery')).toBe('Delivered');
    expect(factOf('Amount')).toBe('€21.50');
    expect(factOf('Placed')).toMatch(/22 Nov 2026/);
    const lines = within(screen.getByRole('list', { name: 'Products in this order' })).getAllByRole('listitem');
    expect(lines.map((line) => line.textContent)).toEqual(['Hades (Steam)1 × €12.50', 'Celeste (PC)1 × €9.00']);
    // Nothing to report before a key is revealed: the server takes no claim on an unrevealed key.
    expect(screen.queryByRole('button', { name: /Report a problem/ })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Reveal Key of Hades' }));
    // The keys are the list's own items (a revealed key's activation guide has a list of its own).
    const keys = [...screen.getByRole('list', { name: 'Keys in this order' }).children] as HTMLElement[];
    expect(await within(keys[0]!).findByText('HADES-1111-2222')).toBeTruthy();
    expect(within(keys[0]!).getByText('Product Key:')).toBeTruthy();
    expect(within(keys[0]!).getByText('How to activate on Steam')).toBeTruthy();
    expect(within(keys[0]!).getByRole('button', { name: 'Copy the key of Hades' })).toBeTruthy();
    expect(within(keys[1]!).getByRole('button', { name: 'Reveal Key of Celeste' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Report a problem with the key of Hades' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Report a problem with the key of Celeste' })).toBeNull();
    // The guest has no session: the token alone opens the order, its claims and its key.
    expect(calls).toEqual([
      { route: 'GET /api/orders/o1?token=tok-1' },
      { route: 'GET /api/orders/o1/claims?token=tok-1' },
      { route: 'GET /api/orders/o1/keys?token=tok-1&keyId=k1' },
    ]);
  });

  it('reports a revealed key as bad with the token, and shows the claim it made', async () => {
    const user = userEvent.setup();
    // The server's claims on the order: the one reported here, once it is.
    const claims: Claim[] = [];
    const calls = stubApi({
      'GET /api/orders/o1?token=tok-1': () => answer(orderSchema, paidOrder({ keys: [{ purchaseId: 'k1', gameId: 'g1', title: 'Hades', revealed: true }] })),
      'GET /api/orders/o1/claims?token=tok-1': () => answer(claimListSchema, claims),
      'POST /api/purchases/k1/claim?token=tok-1': ({ body }) => {
        claims.unshift(testClaim({ purchaseId: 'k1', orderId: 'o1', ...(body as Pick<Claim, 'reason' | 'message'>) }));
        return answer(claimAnswerSchema, { claim: claims[0]! }, 201);
      },
    });
    renderOrder();
    await user.click(await screen.findByRole('button', { name: 'Report a problem with the key of Hades' }));
    const dialog = screen.getByRole('dialog', { name: 'Report a problem with Hades' });
    await user.selectOptions(within(dialog).getByLabelText('What is wrong?'), 'Invalid key');
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('Reported problem:').textContent).toBe('Reported problem: Waiting for the seller');
    expect(calls).toContainEqual({ route: 'POST /api/purchases/k1/claim?token=tok-1', body: { reason: 'invalid-key', message: '' } });
  });

  it.each([401, 404])('says the link is not valid when the server answers %i, and offers to sign in', async (status) => {
    stubApi({ 'GET /api/orders/o1?token=forged': () => json(status, { error: 'Order not found' }) });
    renderOrder('/orders/o1?token=forged');
    expect((await screen.findByRole('alert')).textContent).toBe(orderMessages.orderLinkInvalid);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('status', { name: 'Open auth dialog' }).textContent).toBe('login');
    expect(screen.getByRole('link', { name: 'Back to Store' }).getAttribute('href')).toBe('/store');
  });

  it('asks again every few seconds while the keys are on their way, until they are delivered', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let delivered = false;
    const calls = stubApi({
      'GET /api/orders/o1?token=tok-1': () =>
        answer(orderSchema, delivered ? paidOrder() : paidOrder({ deliveryStatus: 'Pending', deliveredAt: null, keys: [] })),
      'GET /api/orders/o1/claims?token=tok-1': () => answer(claimListSchema, []),
    });
    const orderCalls = () => calls.filter(({ route }) => route === 'GET /api/orders/o1?token=tok-1');
    renderOrder();
    expect((await screen.findByText('Your keys are being delivered. They will appear here in a moment.')).getAttribute('role')).toBe('status');
    await act(() => vi.advanceTimersByTimeAsync(ORDER_POLL_MS));
    expect(orderCalls()).toHaveLength(2);
    delivered = true;
    await act(() => vi.advanceTimersByTimeAsync(ORDER_POLL_MS));
    expect(await screen.findByRole('button', { name: 'Reveal Key of Hades' })).toBeTruthy();
    expect(screen.queryByText(/being delivered/)).toBeNull();
    expect(factOf('Delivery')).toBe('Delivered');
    // Delivered: no more asking.
    await act(() => vi.advanceTimersByTimeAsync(ORDER_POLL_MS * 3));
    expect(orderCalls()).toHaveLength(3);
  });

  it("shows a signed-in owner's order without a token, with the claims of its keys", async () => {
    const calls = stubApi({
      'GET /api/orders/o1': () => answer(orderSchema, paidOrder({ keys: [{ purchaseId: 'k1', gameId: 'g1', title: 'Hades', revealed: true }] })),
      'GET /api/claims': () => answer(claimListSchema, [testClaim({ purchaseId: 'k1', state: 'replaced' })]),
    });
    act(() => signIn('token-1', testUser()));
    renderOrder('/orders/o1');
    expect((await screen.findByText('Reported problem:')).textContent).toBe('Reported problem: Replaced');
    expect(calls.map(({ route, authorization }) => `${route} ${authorization}`)).toEqual(['GET /api/orders/o1 Bearer token-1', 'GET /api/claims Bearer token-1']);
  });

  it("lists a guest's claims from the order's link next to their keys, after a reload too", async () => {
    const calls = stubApi({
      'GET /api/orders/o1?token=tok-1': () =>
        answer(orderSchema, paidOrder({ keys: [{ purchaseId: 'k1', gameId: 'g1', title: 'Hades', revealed: true }, { purchaseId: 'k2', gameId: 'g2', title: 'Celeste', revealed: true }] })),
      'GET /api/orders/o1/claims?token=tok-1': () =>
        answer(claimListSchema, [testClaim({ purchaseId: 'k2', orderId: 'o1', state: 'rejected', sellerMessage: 'The key was redeemed on 2 Feb.' })]),
    });
    renderOrder();
    const keys = within(await screen.findByRole('list', { name: 'Keys in this order' })).getAllByRole('listitem');
    await waitFor(() => expect(within(keys[1]!).getByText('Reported problem:').textContent).toBe(`Reported problem: ${CLAIM_STATE_LABELS.rejected}`));
    expect(within(keys[1]!).getByText('The seller says: The key was redeemed on 2 Feb.')).toBeTruthy();
    // A claim waits for Keystore's word: no second report of that key; the other key has none and may be reported.
    expect(within(keys[1]!).queryByRole('button', { name: /Report a problem/ })).toBeNull();
    expect(within(keys[0]!).queryByText('Reported problem:')).toBeNull();
    expect(within(keys[0]!).getByRole('button', { name: 'Report a problem with the key of Hades' })).toBeTruthy();
    // No session: the link alone reads them, never the account's list.
    expect(calls.map(({ route, authorization }) => `${route} ${authorization}`)).toEqual(['GET /api/orders/o1?token=tok-1 undefined', 'GET /api/orders/o1/claims?token=tok-1 undefined']);
  });

  it('says a gift order’s keys went to its recipient, with nothing to reveal', async () => {
    const calls = stubApi({
      'GET /api/orders/o1?token=tok-1': () => answer(orderSchema, paidOrder({ keys: [], lines: [testOrderLine({ keysDelivered: 1 })] })),
    });
    renderOrder();
    expect(await screen.findByText('Sent as a gift: we e-mailed the recipient a link to reveal the keys. Only they can see them.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Reveal Key/ })).toBeNull();
    expect(screen.queryByText('This order has no keys.')).toBeNull();
    expect(screen.queryByText(/Keep the link we e-mailed you/)).toBeNull();
    expect(calls).toEqual([{ route: 'GET /api/orders/o1?token=tok-1' }]);
  });

  it('offers to pay an order still awaiting payment, with its token, and leaves the cart alone', async () => {
    act(() => addToCart({ _id: 'g1', title: 'Hades', image: '', platform: 'Steam', region: '', price: 12.5, originalPrice: null, type: 'Games' }));
    stubApi({ 'GET /api/orders/o1?token=tok-1': () => answer(orderSchema, testOrder({ keys: [] })) });
    renderOrder();
    expect((await screen.findByRole('link', { name: 'Pay now' })).getAttribute('href')).toBe('/pay/o1?token=tok-1');
    expect(screen.getByText('Your keys appear here once the order is paid.')).toBeTruthy();
    expect(screen.getByRole('status', { name: 'Cart' }).textContent).toBe('1');
  });

  it('takes a just-paid order’s games out of the cart (a guest back from Stripe), but not an older one’s', async () => {
    act(() => addToCart({ _id: 'g1', title: 'Hades', image: '', platform: 'Steam', region: '', price: 12.5, originalPrice: null, type: 'Games' }));
    // Paid an hour ago: the e-mailed link, opened later.
    stubApi({
      'GET /api/orders/o1?token=tok-1': () => answer(orderSchema, paidOrder({ paidAt: new Date(Date.now() - 60 * 60_000).toISOString() })),
      'GET /api/orders/o1/claims?token=tok-1': () => answer(claimListSchema, []),
    });
    renderOrder();
    await screen.findByRole('button', { name: 'Reveal Key of Hades' });
    expect(screen.getByRole('status', { name: 'Cart' }).textContent).toBe('1');
    resetTestState();

    stubApi({
      'GET /api/orders/o1?token=tok-1': () => answer(orderSchema, paidOrder({ paidAt: new Date().toISOString() })),
      'GET /api/orders/o1/claims?token=tok-1': () => answer(claimListSchema, []),
    });
    renderOrder();
    await screen.findByRole('button', { name: 'Reveal Key of Hades' });
    await waitFor(() => expect(screen.getByRole('status', { name: 'Cart' }).textContent).toBe('0'));
  });
});
