import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation, type InitialEntry } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOrderAnswerSchema, orderSchema, testPaymentAnswerSchema, type Order } from '@keystore/contract';
import { addToCart, clearCart, useCart } from '../../lib/cart.ts';
import { clearSession, signIn } from '../../lib/session.ts';
import { answer, testOrder, testOrderLine, testUser } from '../../test/contract-fixtures.ts';
import { json, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { Toasts } from '../../ui/toasts.tsx';
import { PayPage } from './pay-page.tsx';

/** Two keys of Hades for Steam at €12.50, held for 20 more minutes. */
function order(overrides: Partial<Order> = {}): Order {
  return testOrder({
    items: 'Hades',
    date: '2026-11-22T08:00:00Z',
    createdAt: '2026-11-22T08:00:00Z',
    expiresAt: new Date(Date.now() + 20 * 60_000).toISOString(),
    lines: [testOrderLine({ platform: 'Steam', quantity: 2, unitPrice: 12.5 })],
    ...overrides,
  });
}

/** The cart, as far as this page is concerned: that it opened and what it holds then. */
function CartProbe() {
  const { items } = useCart();
  return <h1>{`Cart ${items.length}`}</h1>;
}

/** The library, as far as this page is concerned: where it went and what the cart holds then. */
function LibraryProbe() {
  const { items } = useCart();
  return <h1>{`Library ${useLocation().search} cart ${items.length}`}</h1>;
}

/** The order page a guest's payment leads to: where it went and what the cart holds then. */
function OrderProbe() {
  const { items } = useCart();
  const { pathname, search } = useLocation();
  return <h1>{`Order ${pathname}${search} cart ${items.length}`}</h1>;
}

function renderPay(path: InitialEntry = '/pay/o1') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/pay/:orderId" element={<PayPage />} />
          <Route path="/library" element={<LibraryProbe />} />
          <Route path="/cart" element={<CartProbe />} />
          <Route path="/orders/:id" element={<OrderProbe />} />
        </Routes>
        <Toasts />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

async function fillCard(user: ReturnType<typeof userEvent.setup>, number: string) {
  await user.clear(screen.getByLabelText('Card number'));
  await user.type(screen.getByLabelText('Card number'), number);
  await user.clear(screen.getByLabelText('Expiry (MM/YY)'));
  await user.type(screen.getByLabelText('Expiry (MM/YY)'), '1239');
  await user.clear(screen.getByLabelText('CVC'));
  await user.type(screen.getByLabelText('CVC'), '123');
  await user.clear(screen.getByLabelText('Name on card'));
  await user.type(screen.getByLabelText('Name on card'), 'Ada Player');
}

const paid = testPaymentAnswerSchema.parse({ status: 'Paid', deliveryStatus: 'Pending', message: 'Payment successful! Your keys are in your library.', redirectUrl: '/library?order=o2' });

beforeEach(() => {
  act(() => {
    signIn('token-1', testUser());
    addToCart({ _id: 'g1', title: 'Hades', image: '', platform: 'Steam', region: '', price: 12.5, originalPrice: null, type: 'Games' });
    addToCart({ _id: 'g9', title: 'Celeste', image: '', platform: 'PC', region: '', price: 9, originalPrice: null, type: 'Games' });
  });
});
afterEach(() => {
  resetTestState();
  clearCart();
});

describe('the payment page', () => {
  it("'Cancel order' gives the order's keys back at once and returns to the cart, which keeps the games", async () => {
    const user = userEvent.setup();
    const calls = stubApi({
      'GET /api/orders/o1': () => answer(orderSchema, order()),
      'POST /api/orders/o1/cancel': () => answer(orderSchema, order({ status: 'Cancelled', deliveryStatus: 'Not delivered' })),
    });
    renderPay();
    await user.click(await screen.findByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByRole('heading', { name: 'Cart 2' })).toBeTruthy();
    expect(screen.getByText('Order cancelled: nothing was charged, and its keys are back in the store.')).toBeTruthy();
    expect(calls.at(-1)).toEqual({ route: 'POST /api/orders/o1/cancel', authorization: 'Bearer token-1' });
  });

  it("shows why 'Cancel order' did not go through, and stays on the order", async () => {
    const user = userEvent.setup();
    stubApi({
      'GET /api/orders/o1': () => answer(orderSchema, order()),
      'POST /api/orders/o1/cancel': () => json(409, { error: 'This order has already been paid, so it cannot be cancelled.' }),
    });
    renderPay();
    await user.click(await screen.findByRole('button', { name: 'Cancel order' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This order has already been paid, so it cannot be cancelled.');
    expect(screen.getByRole('button', { name: 'Pay €25.00' })).toBeTruthy();
  });

  it('says a cancelled order was cancelled and nothing was charged', async () => {
    stubApi({ 'GET /api/orders/o1': () => answer(orderSchema, order({ status: 'Cancelled', deliveryStatus: 'Not delivered' })) });
    renderPay();
    expect((await screen.findByRole('alert')).textContent).toBe('You cancelled this order, so nothing was charged. Please place a new order.');
    expect(screen.getByRole('link', { name: 'Back to Store' })).toBeTruthy();
  });

  it('shows the order, checks the card before sending, and shows a decline above the form', async () => {
    const user = userEvent.setup();
    const calls = stubApi({
      'GET /api/orders/o1': () => answer(orderSchema, order()),
      'POST /api/payments/test/o1': () => answer(testPaymentAnswerSchema, { status: 'Declined', deliveryStatus: 'Not delivered', message: 'Your card was declined.', redirectUrl: '/pay/o1' }),
    });
    renderPay();
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment' })).toBeTruthy();
    expect(screen.getByText('Hades')).toBeTruthy();
    expect(screen.getByText('Steam · 2 × €12.50')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Visa' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Mastercard' })).toBeTruthy();
    expect(screen.getByText('4242 4242 4242 4242')).toBeTruthy();

    // A number failing the Luhn check never leaves the page.
    await fillCard(user, '4242424242424241');
    await user.click(screen.getByRole('button', { name: 'Pay €25.00' }));
    expect(screen.getByText('Please enter a valid card number')).toBeTruthy();
    expect(screen.getByLabelText('Card number').getAttribute('aria-invalid')).toBe('true');
    expect(calls.map((call) => call.route)).toEqual(['GET /api/orders/o1']);

    await fillCard(user, '4000000000000002');
    expect((screen.getByLabelText('Card number') as HTMLInputElement).value).toBe('4000 0000 0000 0002');
    await user.click(screen.getByRole('button', { name: 'Pay €25.00' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your card was declined.');
    expect(calls.at(-1)).toEqual({
      route: 'POST /api/payments/test/o1',
      body: { cardNumber: '4000 0000 0000 0002', expiry: '12/39', cvc: '123', name: 'Ada Player' },
      authorization: 'Bearer token-1',
    });
    expect(screen.getByRole('button', { name: 'Pay €25.00' })).toBeTruthy();
  });

  it('after a decline, pays a new order with the same lines; success takes the bought game out of the cart, keeps the rest, and opens the library', async () => {
    const user = userEvent.setup();
    let attempts = 0;
    const calls = stubApi({
      'GET /api/orders/o1': () => answer(orderSchema, order()),
      'POST /api/payments/test/o1': () => {
        attempts += 1;
        return answer(testPaymentAnswerSchema, { status: 'Declined', deliveryStatus: 'Not delivered', message: 'Your card was declined.', redirectUrl: '/pay/o1' });
      },
      'POST /api/orders': () => answer(createOrderAnswerSchema, { order: order({ _id: 'o2' }), paymentUrl: '/pay/o2' }, 201),
      'POST /api/payments/test/o2': () => answer(testPaymentAnswerSchema, paid),
    });
    renderPay();
    await screen.findByRole('button', { name: 'Pay €25.00' });
    await fillCard(user, '4000000000000002');
    await user.click(screen.getByRole('button', { name: 'Pay €25.00' }));
    await screen.findByRole('alert');

    await fillCard(user, '4242 4242 4242 4242');
    await user.click(screen.getByRole('button', { name: 'Pay €25.00' }));
    expect(await screen.findByRole('heading', { name: 'Library ?order=o2 cart 1' })).toBeTruthy();
    expect(screen.getByText('Payment successful! Your keys are in your library.')).toBeTruthy();
    expect(attempts).toBe(1);
    expect(calls.find((call) => call.route === 'POST /api/orders')!.body).toEqual({ items: [{ gameId: 'g1', quantity: 2 }] });
  });

  it('places the new order after a decline under one Idempotency-Key until a verdict: a retry after a lost answer pays that order, the next attempt gets a new key', async () => {
    const user = userEvent.setup();
    const declined = () => answer(testPaymentAnswerSchema, { status: 'Declined', deliveryStatus: 'Not delivered', message: 'Your card was declined.', redirectUrl: '/pay/o1' });
    let placings = 0;
    const calls = stubApi({
      'GET /api/orders/o1': () => answer(orderSchema, order()),
      'POST /api/payments/test/o1': declined,
      'POST /api/orders': () => {
        placings += 1;
        // The first new order is placed, but its answer is lost on the way back.
        if (placings === 1) throw new TypeError('Failed to fetch');
        const id = placings === 2 ? 'o2' : 'o3';
        return answer(createOrderAnswerSchema, { order: order({ _id: id }), paymentUrl: `/pay/${id}` }, 201);
      },
      'POST /api/payments/test/o2': declined,
      'POST /api/payments/test/o3': () => answer(testPaymentAnswerSchema, { ...paid, redirectUrl: '/library?order=o3' }),
    });
    renderPay();
    await screen.findByRole('button', { name: 'Pay €25.00' });
    await fillCard(user, '4000000000000002');
    await user.click(screen.getByRole('button', { name: 'Pay €25.00' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your card was declined.');

    await user.click(screen.getByRole('button', { name: 'Pay €25.00' }));
    expect((await screen.findByText('No answer from the payment service. Please try again.')).getAttribute('role')).toBe('alert');
    await user.click(screen.getByRole('button', { name: 'Pay €25.00' }));
    expect(await screen.findByText('Your card was declined.')).toBeTruthy();
    await fillCard(user, '4242424242424242');
    await user.click(screen.getByRole('button', { name: 'Pay €25.00' }));
    expect(await screen.findByRole('heading', { name: 'Library ?order=o3 cart 1' })).toBeTruthy();

    const placed = calls.filter((call) => call.route === 'POST /api/orders');
    expect(placed.map((call) => call.body)).toEqual(Array(3).fill({ items: [{ gameId: 'g1', quantity: 2 }] }));
    const [lost, retried, nextAttempt] = placed.map((call) => call.idempotencyKey);
    expect(lost).toMatch(/^[0-9a-f-]{36}$/);
    expect(retried).toBe(lost);
    expect(nextAttempt).not.toBe(lost);
    expect(calls.filter((call) => call.route.startsWith('POST /api/payments/test/')).map((call) => call.route)).toEqual([
      'POST /api/payments/test/o1',
      'POST /api/payments/test/o2',
      'POST /api/payments/test/o3',
    ]);
  });

  it('pays the same order again after a payment call got no answer, rather than placing a new one', async () => {
    const user = userEvent.setup();
    let tries = 0;
    const calls = stubApi({
      'GET /api/orders/o1': () => answer(orderSchema, order()),
      'POST /api/payments/test/o1': () => {
        tries += 1;
        if (tries === 1) throw new TypeError('Failed to fetch');
        return answer(testPaymentAnswerSchema, { ...paid, redirectUrl: '/library?order=o1' });
      },
    });
    renderPay();
    await screen.findByRole('button', { name: 'Pay €25.00' });
    await fillCard(user, '4242424242424242');
    await user.click(screen.getByRole('button', { name: 'Pay €25.00' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No answer from the payment service. Please try again.');
    expect(screen.getByText(/Reserved for you until/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Pay €25.00' }));
    expect(await screen.findByRole('heading', { name: 'Library ?order=o1 cart 1' })).toBeTruthy();
    expect(calls.some((call) => call.route === 'POST /api/orders')).toBe(false);
  });

  it('says why an order cannot be paid any more, with the way on', async () => {
    stubApi({ 'GET /api/orders/o1': () => answer(orderSchema, order({ status: 'Expired', deliveryStatus: 'Not delivered' })) });
    renderPay();
    expect((await screen.findByRole('alert')).textContent).toBe('This order has expired: its 30 minutes to pay are over. Please place a new order.');
    expect(screen.getByRole('link', { name: 'Back to Store' }).getAttribute('href')).toBe('/store');
    expect(screen.queryByRole('form', { name: 'Card details' })).toBeNull();
  });

  it('says a payment cancelled on Stripe charged nothing, and goes back to the same checkout', async () => {
    const user = userEvent.setup();
    const calls = stubApi({
      'GET /api/orders/o1': () => answer(orderSchema, order({ paymentProvider: 'stripe' })),
      'POST /api/orders/o1/checkout': () => json(409, { error: 'Your payment is being processed. Your keys will be in your library as soon as it is through.' }),
    });
    renderPay('/pay/o1?cancelled=1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment cancelled' })).toBeTruthy();
    expect(screen.getByText(/You cancelled the payment/).textContent).toMatch(/^You cancelled the payment, so nothing was charged\. Your games are reserved for you until \d\d:\d\d\.$/);
    expect(screen.getByText('Steam · 2 × €12.50')).toBeTruthy();
    // No test-card form for an order paid on Stripe's page: the test gateway would refuse it.
    expect(screen.queryByLabelText('Card number')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your payment is being processed. Your keys will be in your library as soon as it is through.');
    expect(calls.at(-1)).toMatchObject({ route: 'POST /api/orders/o1/checkout', authorization: 'Bearer token-1' });
    expect((screen.getByRole('button', { name: 'Try again' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('offers to continue to Stripe for an order awaiting payment there', async () => {
    stubApi({ 'GET /api/orders/o1': () => answer(orderSchema, order({ paymentProvider: 'stripe' })) });
    renderPay();
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment' })).toBeTruthy();
    expect(screen.getByText(/This order is waiting for its payment\./)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue to payment' })).toBeTruthy();
  });

  it('leads a paid order to the library', async () => {
    stubApi({ 'GET /api/orders/o1': () => answer(orderSchema, order({ status: 'Paid', deliveryStatus: 'Delivered' })) });
    renderPay();
    expect((await screen.findByRole('alert')).textContent).toBe('This order has already been paid.');
    expect(screen.getByRole('link', { name: 'Go to Library' }).getAttribute('href')).toBe('/library?order=o1');
  });
});

describe("a guest's payment page", () => {
  const guestPaid = testPaymentAnswerSchema.parse({
    status: 'Paid',
    deliveryStatus: 'Pending',
    message: 'Payment successful! Your keys are on your order page, and we have e-mailed you its link.',
    redirectUrl: '/orders/o1?token=tok-1',
  });
  const declined = () => answer(testPaymentAnswerSchema, { status: 'Declined', deliveryStatus: 'Not delivered', message: 'Your card was declined.', redirectUrl: '/pay/o1' });

  beforeEach(() => act(() => clearSession()));

  it('still asks a visitor without the order’s token to log in', () => {
    renderPay();
    expect(screen.getByText('Please log in to pay for your order.')).toBeTruthy();
  });

  it('reads and pays the order with its token and no session, empties the cart of it and opens the order page the verdict names', async () => {
    const user = userEvent.setup();
    const calls = stubApi({
      'GET /api/orders/o1?token=tok-1': () => answer(orderSchema, order()),
      'POST /api/payments/test/o1?token=tok-1': () => answer(testPaymentAnswerSchema, guestPaid),
    });
    renderPay('/pay/o1?token=tok-1');
    await screen.findByRole('button', { name: 'Pay €25.00' });
    await fillCard(user, '4242424242424242');
    await user.click(screen.getByRole('button', { name: 'Pay €25.00' }));

    expect(await screen.findByRole('heading', { name: 'Order /orders/o1?token=tok-1 cart 1' })).toBeTruthy();
    expect(screen.getByText('Payment successful! Your keys are on your order page, and we have e-mailed you its link.')).toBeTruthy();
    expect(calls.map(({ route, authorization }) => ({ route, authorization }))).toEqual([
      { route: 'GET /api/orders/o1?token=tok-1', authorization: undefined },
      { route: 'POST /api/payments/test/o1?token=tok-1', authorization: undefined },
    ]);
  });

  it("cancels with the order's token", async () => {
    const user = userEvent.setup();
    const calls = stubApi({
      'GET /api/orders/o1?token=tok-1': () => answer(orderSchema, order()),
      'POST /api/orders/o1/cancel?token=tok-1': () => answer(orderSchema, order({ status: 'Cancelled', deliveryStatus: 'Not delivered' })),
    });
    renderPay('/pay/o1?token=tok-1');
    await user.click(await screen.findByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByRole('heading', { name: 'Cart 2' })).toBeTruthy();
    expect(calls.at(-1)).toEqual({ route: 'POST /api/orders/o1/cancel?token=tok-1' });
  });

  it('after a decline, places the new order for the e-mail the guest form gave (a gift still, when it was one), and pays it with its own token', async () => {
    const user = userEvent.setup();
    const calls = stubApi({
      'GET /api/orders/o1?token=tok-1': () => answer(orderSchema, order()),
      'POST /api/payments/test/o1?token=tok-1': declined,
      'POST /api/orders': () => answer(createOrderAnswerSchema, { order: order({ _id: 'o2' }), paymentUrl: '/pay/o2', token: 'tok-2' }, 201),
      'POST /api/payments/test/o2?token=tok-2': () => answer(testPaymentAnswerSchema, { ...guestPaid, redirectUrl: '/orders/o2?token=tok-2' }),
    });
    const gift = { email: 'sam@example.org', name: 'Sam', message: 'Happy birthday!' };
    renderPay({ pathname: '/pay/o1', search: '?token=tok-1', state: { guestEmail: 'guest@example.org', gift } });
    await screen.findByRole('button', { name: 'Pay €25.00' });
    await fillCard(user, '4000000000000002');
    await user.click(screen.getByRole('button', { name: 'Pay €25.00' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your card was declined.');

    await fillCard(user, '4242424242424242');
    await user.click(screen.getByRole('button', { name: 'Pay €25.00' }));
    expect(await screen.findByRole('heading', { name: 'Order /orders/o2?token=tok-2 cart 1' })).toBeTruthy();
    expect(calls.find((call) => call.route === 'POST /api/orders')).toMatchObject({ body: { items: [{ gameId: 'g1', quantity: 2 }], email: 'guest@example.org', gift } });
    expect(calls.every((call) => call.authorization === undefined)).toBe(true);
  });

  it('after a decline without the guest’s e-mail (the page was opened anew), leads back to the cart instead of a card form', async () => {
    const user = userEvent.setup();
    stubApi({ 'GET /api/orders/o1?token=tok-1': () => answer(orderSchema, order()), 'POST /api/payments/test/o1?token=tok-1': declined });
    renderPay('/pay/o1?token=tok-1');
    await screen.findByRole('button', { name: 'Pay €25.00' });
    await fillCard(user, '4000000000000002');
    await user.click(screen.getByRole('button', { name: 'Pay €25.00' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Your card was declined.');
    expect(screen.queryByLabelText('Card number')).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to cart' }).getAttribute('href')).toBe('/cart');
  });

  it('leads a paid order to its order page, token and all', async () => {
    stubApi({ 'GET /api/orders/o1?token=tok-1': () => answer(orderSchema, order({ status: 'Paid', deliveryStatus: 'Delivered' })) });
    renderPay('/pay/o1?token=tok-1');
    expect((await screen.findByRole('alert')).textContent).toBe('This order has already been paid.');
    expect(screen.getByRole('link', { name: 'Go to your order' }).getAttribute('href')).toBe('/orders/o1?token=tok-1');
  });
});
