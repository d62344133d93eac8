import { screen, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOrderAnswerSchema } from '@keystore/contract';
import { giftMessages } from '@keystore/contract/gift-rules';
import { orderMessages, validationMessages } from '@keystore/contract/messages';
import type { PendingCheckout } from '../../lib/auth-dialog.ts';
import { answer, testOrder } from '../../test/contract-fixtures.ts';
import { json, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { findDialog, renderDialog, typist } from './auth-test-kit.tsx';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const describedText = (field: HTMLElement) => document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent;

/** Where the app is: the payment page once the guest's order is placed, and what it was told (to place the order again after a decline). */
function LocationProbe() {
  const { pathname, search, state } = useLocation();
  return (
    <>
      <output aria-label="Location">{`${pathname}${search}`}</output>
      <output aria-label="Payment state">{JSON.stringify(state)}</output>
    </>
  );
}
const location = () => screen.getByRole('status', { name: 'Location' }).textContent;
const paymentState = () => JSON.parse(screen.getByRole('status', { name: 'Payment state' }).textContent ?? 'null') as unknown;

/** The cart's two lines, as checkout hands them to the login dialog. */
const cartCheckout = (onError?: (error: unknown) => void): PendingCheckout => ({
  items: [
    { gameId: 'g1', quantity: 2, expectedPrice: 19.99 },
    { gameId: 'g2', quantity: 1, offerId: 'offer00000000001', expectedPrice: 9.5 },
  ],
  onError,
});

/** The login dialog a purchase opened, switched to the guest form. */
async function openGuestForm(checkout = cartCheckout()) {
  const type = typist();
  renderDialog('login', { checkout }, <LocationProbe />);
  await type.click(within(await findDialog('Login')).getByRole('button', { name: 'Continue as guest' }));
  return { type, dialog: await findDialog('Continue as guest') };
}

describe('checkout as a guest', () => {
  afterEach(resetTestState);

  it('is offered by the login dialog only when a purchase opened it, and leads back to the login', async () => {
    const type = typist();
    renderDialog('login');
    expect(within(await findDialog('Login')).queryByRole('button', { name: 'Continue as guest' })).toBeNull();
    resetTestState();

    renderDialog('login', { checkout: cartCheckout() });
    await type.click(within(await findDialog('Login')).getByRole('button', { name: 'Continue as guest' }));
    const dialog = await findDialog('Continue as guest');
    // The dialog's first control takes focus, as every auth dialog's does.
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Email'));
    await type.click(within(dialog).getByRole('button', { name: 'Login' }));
    expect(within(await findDialog('Login')).getByRole('button', { name: 'Continue as guest' })).toBeTruthy();
  });

  it('checks the e-mail by the contract’s rule, that both match and that the terms are accepted, before anything is sent', async () => {
    const calls = stubApi({});
    const { type, dialog } = await openGuestForm();
    const email = within(dialog).getByLabelText('Email');
    const confirm = within(dialog).getByLabelText('Confirm email');
    const terms = within(dialog).getByRole('checkbox', { name: /^I accept the Terms of Service/ });
    expect(within(dialog).getByRole('link', { name: /^Terms of Service/ }).getAttribute('href')).toBe('/terms');

    await type.click(within(dialog).getByRole('button', { name: 'Continue to payment' }));
    expect(describedText(email)).toBe('Email is required');
    expect(document.activeElement).toBe(email);
    expect(describedText(terms)).toBe('Please accept the Terms of Service');
    expect(terms.getAttribute('aria-invalid')).toBe('true');

    await type.type(email, 'guest@unknown-shop.zzz');
    expect(describedText(email)).toBe('Please enter an email from a recognized provider');
    await type.clear(email);
    await type.type(email, 'guest@example.org');
    expect(email.getAttribute('aria-invalid')).toBeNull();
    await type.type(confirm, 'guest@example.com');
    await type.tab();
    expect(describedText(confirm)).toBe('E-mails do not match');
    expect(confirm.getAttribute('aria-invalid')).toBe('true');
    // Case aside, the same address matches.
    await type.clear(confirm);
    await type.type(confirm, 'Guest@Example.org');
    expect(confirm.getAttribute('aria-invalid')).toBeNull();
    // Changing the first e-mail checks the second again.
    await type.type(email, 'x');
    expect(describedText(confirm)).toBe('E-mails do not match');
    expect(calls).toEqual([]);
  });

  it('places the order for the e-mail without a session, then opens its payment page with the order’s token', async () => {
    const calls = stubApi({
      'POST /api/orders': () => answer(createOrderAnswerSchema, { order: testOrder({ _id: 'o7' }), paymentUrl: '/pay/o7', token: 'guest.token-7' }, 201),
    });
    const { type, dialog } = await openGuestForm();
    await type.type(within(dialog).getByLabelText('Email'), 'Guest@Example.ORG');
    await type.type(within(dialog).getByLabelText('Confirm email'), 'guest@example.org');
    await type.click(within(dialog).getByRole('checkbox', { name: /I accept the Terms of Service/ }));
    await type.click(within(dialog).getByRole('button', { name: 'Continue to payment' }));

    await vi.waitFor(() => expect(location()).toBe('/pay/o7?token=guest.token-7'));
    expect(screen.queryByRole('dialog')).toBeNull();
    // No Authorization header: the guest has no session; the attempt's Idempotency-Key goes along as the cart's does.
    expect(calls).toEqual([
      {
        route: 'POST /api/orders',
        body: { items: cartCheckout().items, email: 'guest@example.org' },
        idempotencyKey: expect.stringMatching(UUID),
      },
    ]);
  });

  it('shows a guest limit’s refusal, which asks to sign in, and hands it to the page that asked', async () => {
    const refused = orderMessages.guestOrderTooLarge(150);
    stubApi({ 'POST /api/orders': () => json(409, { error: refused }) });
    const onError = vi.fn();
    const { type, dialog } = await openGuestForm(cartCheckout(onError));
    await type.type(within(dialog).getByLabelText('Email'), 'guest@example.org');
    await type.type(within(dialog).getByLabelText('Confirm email'), 'guest@example.org');
    await type.click(within(dialog).getByRole('checkbox', { name: /I accept the Terms of Service/ }));
    await type.click(within(dialog).getByRole('button', { name: 'Continue to payment' }));

    expect((await within(dialog).findByRole('alert')).textContent).toBe(refused);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(location()).toBe('/');
    expect((within(dialog).getByRole('button', { name: 'Continue to payment' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('starts with the cart’s gift, and places the order for the recipient with the guest’s e-mail', async () => {
    const gift = { email: 'sam@example.org', name: 'Sam', message: 'Happy birthday!' };
    const calls = stubApi({
      'POST /api/orders': () => answer(createOrderAnswerSchema, { order: testOrder({ _id: 'o7' }), paymentUrl: '/pay/o7', token: 'guest.token-7' }, 201),
    });
    const { type, dialog } = await openGuestForm({ ...cartCheckout(), gift });
    expect((within(dialog).getByRole('checkbox', { name: 'This is a gift' }) as HTMLInputElement).checked).toBe(true);
    expect(within(dialog).getByText('No account needed: we e-mail you a link to your order, and the recipient a link to their keys.')).toBeTruthy();
    expect(((await within(dialog).findByLabelText('Recipient’s e-mail')) as HTMLInputElement).value).toBe('sam@example.org');
    expect((within(dialog).getByLabelText('Recipient’s name') as HTMLInputElement).value).toBe('Sam');
    expect((within(dialog).getByLabelText('Message (optional)') as HTMLTextAreaElement).value).toBe('Happy birthday!');
    expect(within(dialog).getByText('15/300')).toBeTruthy();
    await type.type(within(dialog).getByLabelText('Email'), 'guest@example.org');
    await type.type(within(dialog).getByLabelText('Confirm email'), 'guest@example.org');
    await type.click(within(dialog).getByRole('checkbox', { name: /I accept the Terms of Service/ }));
    await type.click(within(dialog).getByRole('button', { name: 'Continue to payment' }));

    await vi.waitFor(() => expect(location()).toBe('/pay/o7?token=guest.token-7'));
    expect(calls).toEqual([{ route: 'POST /api/orders', body: { items: cartCheckout().items, email: 'guest@example.org', gift }, idempotencyKey: expect.stringMatching(UUID) }]);
    // The pay page can place the same gift again after a declined card.
    expect(paymentState()).toEqual({ guestEmail: 'guest@example.org', gift });
  });

  it('makes a one-click purchase a gift here: the recipient’s fields say what is wrong along with the guest’s, and nothing is sent', async () => {
    const calls = stubApi({});
    const { type, dialog } = await openGuestForm({ items: [{ gameId: 'g1', quantity: 1, expectedPrice: 19.99 }] });
    const isGift = within(dialog).getByRole('checkbox', { name: 'This is a gift' });
    expect((isGift as HTMLInputElement).checked).toBe(false);
    await type.click(isGift);
    const recipient = await within(dialog).findByLabelText('Recipient’s e-mail');

    // The guest's e-mail is wrong too: it takes the focus, and the gift's fields say why at once.
    await type.click(within(dialog).getByRole('button', { name: 'Continue to payment' }));
    await vi.waitFor(() => expect(describedText(recipient)).toBe(validationMessages.emailRequired));
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Email'));
    expect(describedText(within(dialog).getByLabelText('Recipient’s name'))).toBe(giftMessages.nameRequired);

    // The guest's fields right, the gift's wrong: the first of them takes the focus.
    await type.type(within(dialog).getByLabelText('Email'), 'guest@example.org');
    await type.type(within(dialog).getByLabelText('Confirm email'), 'guest@example.org');
    await type.click(within(dialog).getByRole('checkbox', { name: /I accept the Terms of Service/ }));
    await type.click(within(dialog).getByRole('button', { name: 'Continue to payment' }));
    await vi.waitFor(() => expect(document.activeElement).toBe(recipient));
    expect(calls).toEqual([]);
  });
});
