import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthDialog } from '../../lib/auth-dialog.ts';
import { addToCart, clearCart, setCartQuantity, useCart, type CartItem } from '../../lib/cart.ts';
import { signIn } from '../../lib/session.ts';
import { GIFT_MESSAGE_MAX, giftMessages } from '@keystore/contract/gift-rules';
import { validationMessages } from '@keystore/contract/messages';
import { sellerMessages } from '@keystore/contract/seller-rules';
import { testCartGame, testCreatedOrder, testUser } from '../../test/contract-fixtures.ts';
import { AuthDialogProbe, json, openAuthDialogView, renderWithQueries, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { Toasts } from '../../ui/toasts.tsx';
import { CartPage } from './cart-page.tsx';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const game = (id: string, title: string, price: number, originalPrice: number | null, region = 'Europe'): CartItem['game'] =>
  testCartGame({ _id: id, title, image: `/media/covers/${id}.svg`, platform: 'Steam', region, price, originalPrice, type: 'Games' });

/** Stands in for the payment page: how many lines the cart still holds. */
function PayProbe() {
  const { items } = useCart();
  return <h1>{`Pay ${items.length} lines`}</h1>;
}

function renderCart() {
  return renderWithQueries(
    <MemoryRouter initialEntries={['/cart']}>
      <Routes>
        <Route path="/cart" element={<CartPage />} />
        <Route path="/pay/:id" element={<PayProbe />} />
        <Route path="/store" element={<h1>Store</h1>} />
      </Routes>
      <AuthDialogProbe />
      <CheckoutProbe />
    </MemoryRouter>,
  );
}

/** What the login dialog would place for a guest: the lines checkout handed it, and the gift. */
function CheckoutProbe() {
  const { checkout } = useAuthDialog();
  return (
    <>
      <output aria-label="Pending checkout">{JSON.stringify(checkout?.items ?? null)}</output>
      <output aria-label="Pending gift">{JSON.stringify(checkout?.gift ?? null)}</output>
    </>
  );
}
const pendingCheckout = () => JSON.parse(screen.getByRole('status', { name: 'Pending checkout' }).textContent ?? 'null') as unknown;
const pendingGift = () => JSON.parse(screen.getByRole('status', { name: 'Pending gift' }).textContent ?? 'null') as unknown;

const summary = () => screen.getByRole('complementary', { name: 'Order summary' });
/** What a control's description says: its problem, and any note such as a counter. */
const describedText = (field: HTMLElement) =>
  (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');
const valueOf = (term: string) => within(summary()).getByText(term).nextElementSibling?.textContent;

describe('CartPage', () => {
  beforeEach(() => {
    clearCart();
  });
  afterEach(() => {
    resetTestState();
    vi.restoreAllMocks();
  });

  it('shows an empty state with a way back to the store', async () => {
    renderCart();
    expect(screen.getByText('Your cart is empty.')).toBeTruthy();
    await userEvent.click(screen.getByRole('link', { name: 'Continue Shopping' }));
    expect(screen.getByRole('heading', { name: 'Store' })).toBeTruthy();
  });

  it('lists each line with platform, region, euro price and HOT SALE only when the original is higher', () => {
    act(() => {
      addToCart(game('a', 'Elden Ring', 41.99, 59.99));
      addToCart(game('b', 'Hades', 12.5, null, ''));
      addToCart(game('c', 'Celeste', 9, 9));
    });
    renderCart();
    const lines = screen.getAllByRole('listitem');
    expect(lines).toHaveLength(3);
    const [sale, plain, same] = lines as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(sale).getByRole('heading', { name: 'Elden Ring' })).toBeTruthy();
    expect(within(sale).getByText('Steam')).toBeTruthy();
    expect(within(sale).getByText('Region: Europe')).toBeTruthy();
    expect(within(sale).getByText('HOT SALE')).toBeTruthy();
    expect(within(sale).getByText('€41.99')).toBeTruthy();
    expect(sale.querySelector('s')?.textContent).toBe('Original price €59.99');
    // No region falls back to Global.
    expect(within(plain).getByText('Region: Global')).toBeTruthy();
    expect(within(plain).getByText('€12.50')).toBeTruthy();
    expect(within(plain).queryByText('HOT SALE')).toBeNull();
    expect(within(same).queryByText('HOT SALE')).toBeNull();
    expect(same.querySelector('s')).toBeNull();
  });

  it('sums the quantities and the total to the cent, and follows quantity changes', async () => {
    act(() => {
      addToCart(game('a', 'Elden Ring', 41.99, 59.99));
      addToCart(game('b', 'Hades', 0.1, null));
      addToCart(game('c', 'Celeste', 0.2, null));
    });
    renderCart();
    expect(valueOf('Items')).toBe('3');
    expect(valueOf('Total')).toBe('€42.29');

    await userEvent.click(screen.getByRole('button', { name: 'One more Elden Ring' }));
    expect(valueOf('Items')).toBe('4');
    expect(valueOf('Total')).toBe('€84.28');
    act(() => setCartQuantity('b', 3));
    expect(valueOf('Total')).toBe('€84.48');
  });

  it('keeps the quantity at 1 or more, and removes a line or all of them', async () => {
    act(() => {
      addToCart(game('a', 'Elden Ring', 41.99, 59.99));
      addToCart(game('b', 'Hades', 12.5, null));
    });
    renderCart();
    expect((screen.getByRole('button', { name: 'One less Hades' }) as HTMLButtonElement).disabled).toBe(true);
    const field = screen.getByRole('spinbutton', { name: 'Quantity of Hades' });
    await userEvent.clear(field);
    await userEvent.type(field, '0');
    await userEvent.tab();
    expect((field as HTMLInputElement).value).toBe('1');
    expect(valueOf('Items')).toBe('2');

    await userEvent.click(screen.getByRole('button', { name: 'Remove Hades' }));
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    expect(valueOf('Total')).toBe('€41.99');

    await userEvent.click(screen.getByRole('button', { name: 'Remove all products' }));
    expect(screen.getByRole('link', { name: 'Continue Shopping' })).toBeTruthy();
  });

  it('asks a visitor to log in first, handing the cart’s lines to the dialog for a guest checkout, and keeps the cart', async () => {
    const calls = stubApi({});
    act(() => addToCart(game('a', 'Elden Ring', 41.99, 59.99)));
    renderCart();
    await userEvent.click(screen.getByRole('checkbox', { name: 'I have read and accept the Terms & Conditions' }));
    await userEvent.click(screen.getByRole('button', { name: 'Proceed to Checkout' }));
    expect(openAuthDialogView()).toBe('login');
    expect(pendingCheckout()).toEqual([{ gameId: 'a', quantity: 1, expectedPrice: 41.99 }]);
    expect(calls).toEqual([]);
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });

  it('makes the order a gift: the recipient’s fields are checked by the contract’s rules before anything is sent, and the order carries `gift`', async () => {
    const user = userEvent.setup();
    const calls = stubApi({ 'POST /api/orders': () => json(201, testCreatedOrder()) });
    act(() => {
      signIn('token-1', testUser());
      addToCart(game('a', 'Elden Ring', 41.99, 59.99));
    });
    renderCart();
    await user.click(screen.getByRole('checkbox', { name: 'I have read and accept the Terms & Conditions' }));
    const isGift = screen.getByRole('checkbox', { name: 'This is a gift' });
    expect(screen.queryByLabelText('Recipient’s e-mail')).toBeNull();
    // The keyboard ticks it as well as a click.
    isGift.focus();
    await user.keyboard(' ');
    const email = await screen.findByLabelText('Recipient’s e-mail');
    const name = screen.getByLabelText('Recipient’s name');
    const message = screen.getByLabelText('Message (optional)');
    expect(screen.getByRole('group', { name: 'The gift’s recipient' })).toBeTruthy();

    // Nothing typed: each field says why, the first takes the focus, and nothing is sent.
    await user.click(screen.getByRole('button', { name: 'Proceed to Checkout' }));
    await waitFor(() => expect(document.activeElement).toBe(email));
    expect(describedText(email)).toBe(validationMessages.emailRequired);
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(name)).toBe(giftMessages.nameRequired);
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([validationMessages.emailRequired, giftMessages.nameRequired]);
    expect(calls).toEqual([]);

    // The e-mail rule is the contract's (a recognised provider), and the message counts as it is typed.
    await user.type(email, 'sam@unknown-shop.zzz');
    expect(describedText(email)).toBe(validationMessages.emailProvider);
    await user.clear(email);
    await user.type(email, 'Sam@Example.ORG');
    expect(email.getAttribute('aria-invalid')).toBeNull();
    await user.type(name, '  Sam ');
    expect(name.getAttribute('aria-invalid')).toBeNull();
    await user.click(message);
    await user.paste('x'.repeat(GIFT_MESSAGE_MAX + 1));
    expect(screen.getByText(`${GIFT_MESSAGE_MAX + 1}/${GIFT_MESSAGE_MAX}`)).toBeTruthy();
    expect(describedText(message)).toBe(`${giftMessages.messageTooLong} ${GIFT_MESSAGE_MAX + 1}/${GIFT_MESSAGE_MAX}`);
    await user.click(screen.getByRole('button', { name: 'Proceed to Checkout' }));
    await waitFor(() => expect(document.activeElement).toBe(message));
    expect(calls).toEqual([]);
    await user.clear(message);
    await user.type(message, ' Happy birthday! ');
    expect(screen.getByText(`17/${GIFT_MESSAGE_MAX}`)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Proceed to Checkout' }));
    expect(await screen.findByRole('heading', { name: 'Pay 1 lines' })).toBeTruthy();
    expect(calls).toEqual([
      {
        route: 'POST /api/orders',
        body: { items: [{ gameId: 'a', quantity: 1, expectedPrice: 41.99 }], gift: { email: 'sam@example.org', name: 'Sam', message: 'Happy birthday!' } },
        authorization: 'Bearer token-1',
        idempotencyKey: expect.stringMatching(UUID),
      },
    ]);
  });

  it('hands a visitor’s gift to the login dialog with the lines, for the guest form, and sends no gift once the box is unticked', async () => {
    const user = userEvent.setup();
    const calls = stubApi({});
    act(() => addToCart(game('a', 'Elden Ring', 41.99, 59.99)));
    renderCart();
    await user.click(screen.getByRole('checkbox', { name: 'I have read and accept the Terms & Conditions' }));
    await user.click(screen.getByRole('checkbox', { name: 'This is a gift' }));
    await user.type(await screen.findByLabelText('Recipient’s e-mail'), 'sam@example.org');
    await user.type(screen.getByLabelText('Recipient’s name'), 'Sam');
    await user.click(screen.getByRole('button', { name: 'Proceed to Checkout' }));
    await waitFor(() => expect(openAuthDialogView()).toBe('login'));
    expect(pendingCheckout()).toEqual([{ gameId: 'a', quantity: 1, expectedPrice: 41.99 }]);
    expect(pendingGift()).toEqual({ email: 'sam@example.org', name: 'Sam', message: '' });

    await user.click(screen.getByRole('checkbox', { name: 'This is a gift' }));
    expect(screen.queryByLabelText('Recipient’s e-mail')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Proceed to Checkout' }));
    await waitFor(() => expect(pendingGift()).toBeNull());
    expect(calls).toEqual([]);
  });

  it("shows the server's refusal when a game ran out of stock", async () => {
    stubApi({ 'POST /api/orders': () => json(409, { error: 'Only 1 key of "Elden Ring" is left' }) });
    act(() => {
      signIn('token-1', testUser());
      addToCart(game('a', 'Elden Ring', 41.99, 59.99));
      setCartQuantity('a', 2);
    });
    renderCart();
    await userEvent.click(screen.getByRole('checkbox', { name: 'I have read and accept the Terms & Conditions' }));
    await userEvent.click(screen.getByRole('button', { name: 'Proceed to Checkout' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Only 1 key of "Elden Ring" is left');
    expect(screen.getByRole('heading', { name: 'Cart' })).toBeTruthy();
  });

  it('alerts until the terms are accepted, then places the order and opens its payment page', async () => {
    const calls = stubApi({ 'POST /api/orders': () => json(201, testCreatedOrder()) });
    act(() => signIn('token-1', testUser()));
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    act(() => addToCart(game('a', 'Elden Ring', 41.99, 59.99)));
    renderCart();
    expect(screen.getByText('You will be redirected to the payment page.')).toBeTruthy();
    const proceed = screen.getByRole('button', { name: 'Proceed to Checkout' });
    expect(proceed.getAttribute('aria-disabled')).toBe('true');

    await userEvent.click(proceed);
    expect(alert).toHaveBeenCalledWith('Please accept the Terms & Conditions');
    expect(screen.getByRole('heading', { name: 'Cart' })).toBeTruthy();

    const terms = screen.getByRole('checkbox', { name: 'I have read and accept the Terms & Conditions' });
    expect(within(terms.parentElement!).getByRole('link', { name: 'Terms & Conditions' }).getAttribute('href')).toBe('/terms');
    await userEvent.click(terms);
    expect(proceed.getAttribute('aria-disabled')).toBe('false');
    await userEvent.click(proceed);
    expect(alert).toHaveBeenCalledTimes(1);
    // The cart is emptied only once the payment succeeds.
    expect(await screen.findByRole('heading', { name: 'Pay 1 lines' })).toBeTruthy();
    expect(calls).toEqual([
      {
        route: 'POST /api/orders',
        body: { items: [{ gameId: 'a', quantity: 1, expectedPrice: 41.99 }] },
        authorization: 'Bearer token-1',
        idempotencyKey: expect.stringMatching(UUID),
      },
    ]);
  });

  it("keeps a chosen offer as a line of its own, named for its seller, and sends it with the price shown", async () => {
    const calls = stubApi({ 'POST /api/orders': () => json(201, testCreatedOrder()) });
    act(() => {
      signIn('token-1', testUser());
      addToCart(game('a', 'Elden Ring', 41.99, null));
      addToCart(game('a', 'Elden Ring', 41.99, null), { offerId: 'offer0000000000001', seller: 'KeyShack', price: 39.5 });
    });
    renderCart();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByText('Sold by KeyShack')).toBeTruthy();
    expect(valueOf('Total')).toBe('€81.49');
    await userEvent.click(screen.getByRole('button', { name: 'One more Elden Ring from KeyShack' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'I have read and accept the Terms & Conditions' }));
    await userEvent.click(screen.getByRole('button', { name: 'Proceed to Checkout' }));
    expect(await screen.findByRole('heading', { name: 'Pay 2 lines' })).toBeTruthy();
    expect(calls[0]!.body).toEqual({
      items: [
        { gameId: 'a', quantity: 1, expectedPrice: 41.99 },
        { gameId: 'a', quantity: 2, offerId: 'offer0000000000001', expectedPrice: 39.5 },
      ],
    });
  });

  it('takes on the new prices of a 409 and says why, then places the order at them', async () => {
    let answers = 0;
    const calls = stubApi({
      'POST /api/orders': () => {
        answers += 1;
        if (answers === 1) return json(409, { error: sellerMessages.priceChanged, prices: [{ gameId: 'a', price: 44.99 }] });
        return json(201, testCreatedOrder());
      },
    });
    act(() => {
      signIn('token-1', testUser());
      addToCart(game('a', 'Elden Ring', 41.99, null));
      addToCart(game('b', 'Hades', 12.5, null));
    });
    renderCart();
    await userEvent.click(screen.getByRole('checkbox', { name: 'I have read and accept the Terms & Conditions' }));
    await userEvent.click(screen.getByRole('button', { name: 'Proceed to Checkout' }));
    expect((await screen.findByRole('alert')).textContent).toBe(sellerMessages.priceChanged);
    expect(screen.getByText('€44.99')).toBeTruthy();
    expect(valueOf('Total')).toBe('€57.49');
    await userEvent.click(screen.getByRole('button', { name: 'Proceed to Checkout' }));
    expect(await screen.findByRole('heading', { name: 'Pay 2 lines' })).toBeTruthy();
    expect(calls[1]!.body).toEqual({
      items: [
        { gameId: 'a', quantity: 1, expectedPrice: 44.99 },
        { gameId: 'b', quantity: 1, expectedPrice: 12.5 },
      ],
    });
  });

  it('sends a click repeated after a lost answer with the same Idempotency-Key, and other items with a new one', async () => {
    let answers = 0;
    const calls = stubApi({
      'POST /api/orders': () => {
        answers += 1;
        if (answers < 3) throw new TypeError('Failed to fetch');
        return json(201, testCreatedOrder());
      },
    });
    act(() => {
      signIn('token-1', testUser());
      addToCart(game('a', 'Elden Ring', 41.99, 59.99));
    });
    renderCart();
    await userEvent.click(screen.getByRole('checkbox', { name: 'I have read and accept the Terms & Conditions' }));
    await userEvent.click(screen.getByRole('button', { name: 'Proceed to Checkout' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The order could not be placed. Please try again.');
    act(() => setCartQuantity('a', 2));
    await userEvent.click(screen.getByRole('button', { name: 'Proceed to Checkout' }));
    await screen.findByRole('alert');
    await userEvent.click(screen.getByRole('button', { name: 'Proceed to Checkout' }));
    expect(await screen.findByRole('heading', { name: 'Pay 1 lines' })).toBeTruthy();

    const [first, changed, repeated] = calls.map((call) => call.idempotencyKey);
    expect(first).toMatch(UUID);
    expect(changed).not.toBe(first);
    expect(repeated).toBe(changed);
  });

  it('says the store is busy while it waits as the server advised, then places the order', async () => {
    let answers = 0;
    const calls = stubApi({
      'POST /api/orders': () => {
        answers += 1;
        if (answers === 1) return json(503, { error: 'The store is busy, try again in a moment' }, { 'Retry-After': '0' });
        return json(201, testCreatedOrder());
      },
    });
    act(() => {
      signIn('token-1', testUser());
      addToCart(game('a', 'Elden Ring', 41.99, 59.99));
    });
    renderCart();
    render(<Toasts />);
    await userEvent.click(screen.getByRole('checkbox', { name: 'I have read and accept the Terms & Conditions' }));
    await userEvent.click(screen.getByRole('button', { name: 'Proceed to Checkout' }));
    expect(await screen.findByText('The store is busy, try again in a moment')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Pay 1 lines' })).toBeTruthy();
    expect(calls).toHaveLength(2);
    expect(calls[1]!.idempotencyKey).toBe(calls[0]!.idempotencyKey);
  });
});
