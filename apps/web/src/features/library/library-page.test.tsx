import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { claimAnswerSchema, claimListSchema, claimMessages, purchaseKeySchema, purchaseListSchema, type Claim } from '@keystore/contract';
import { addToCart, clearCart, type CartItem } from '../../lib/cart.ts';
import { signIn } from '../../lib/session.ts';
import { STORAGE_KEYS } from '../../lib/storage-keys.ts';
import { answer, testGameListItem, testOrder, testOrderLine, testPurchase, testUser } from '../../test/contract-fixtures.ts';
import { AuthDialogProbe, json, networkError, resetTestState, restoringSession, stubApi } from '../../test/fixtures.tsx';
import { testClaim } from '../../test/seller-fixtures.ts';
import { LibraryPage } from './library-page.tsx';

function renderLibrary(path = '/library') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <LibraryPage />
        <AuthDialogProbe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const purchase = testPurchase({ product: testGameListItem({ platform: 'Steam', region: '', price: 12.5, stock: 3 }), revealed: true });

afterEach(() => {
  resetTestState();
  clearCart();
});

describe('the library', () => {
  it('welcomes a visitor with what an account gives, and opens sign-up or login', async () => {
    const user = userEvent.setup();
    renderLibrary();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Welcome to your Library');
    const benefits = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(benefits).toEqual(['Instant delivery of keys', 'All your keys in one place', 'Order history', 'Personal notifications']);
    const probe = screen.getByRole('status', { name: 'Open auth dialog' });

    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(probe.textContent).toBe('signup');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(probe.textContent).toBe('login');
  });

  it("shows a signed-in customer's library, empty until something is bought", async () => {
    stubApi({ 'GET /api/purchases': () => json(200, []) });
    act(() => signIn('token-1', testUser()));
    renderLibrary();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('My Library');
    expect(await screen.findByText('Your library is empty')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse Store' }).getAttribute('href')).toBe('/store');
    expect(screen.queryByRole('button', { name: 'Sign In' })).toBeNull();
  });

  it('shows a placeholder, not the welcome, while a stored session is checked', async () => {
    const answer = restoringSession({ 'GET /api/purchases': networkError });
    renderLibrary();
    expect(screen.getByText('Loading your library')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create Account' })).toBeNull();

    await answer(json(200, testUser()));
    expect(await screen.findByRole('heading', { name: 'My Library' })).toBeTruthy();
  });

  it('lists the games bought and reveals a key only when asked', async () => {
    const user = userEvent.setup();
    const calls = stubApi({
      'GET /api/purchases': () => json(200, [purchase]),
      'GET /api/claims': () => json(200, []),
      'GET /api/purchases/k1/key': () => answer(purchaseKeySchema, { key: 'DEMO-ABCD-1234' }),
    });
    act(() => signIn('token-1', testUser()));
    renderLibrary();
    const card = await screen.findByRole('listitem');
    expect(screen.getByRole('heading', { level: 2, name: 'Hades' })).toBeTruthy();
    expect(card.textContent).toContain('Steam');
    expect(screen.queryByText('Product Key:')).toBeNull();
    await waitFor(() => expect(calls.map((call) => call.route)).toEqual(['GET /api/purchases', 'GET /api/claims']));

    await user.click(screen.getByRole('button', { name: 'Reveal Key of Hades' }));
    expect(await screen.findByText('Product Key:')).toBeTruthy();
    expect(screen.getByText('DEMO-ABCD-1234')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy the key of Hades' })).toBeTruthy();
    expect(calls.at(-1)!.authorization).toBe('Bearer token-1');
  });

  it('after a payment, says the keys are on their way until the order is delivered', async () => {
    let delivered = false;
    stubApi({
      'GET /api/purchases': () => json(200, delivered ? [purchase] : []),
      'GET /api/claims': () => json(200, []),
      'GET /api/orders/o1': () => json(200, testOrder({ status: 'Paid', deliveryStatus: delivered ? 'Delivered' : 'Pending', lines: [] })),
    });
    act(() => signIn('token-1', testUser()));
    renderLibrary('/library?order=o1');
    expect(await screen.findByText(/Your keys are being delivered/)).toBeTruthy();
    delivered = true;
    expect(await screen.findByRole('heading', { level: 2, name: 'Hades' }, { timeout: 4000 })).toBeTruthy();
    expect(screen.queryByText(/Your keys are being delivered/)).toBeNull();
  });

  it("takes a paid order's games out of the cart, and only those (Stripe's page sends the buyer straight here)", async () => {
    stubApi({
      'GET /api/purchases': () => json(200, [purchase]),
      'GET /api/claims': () => json(200, []),
      'GET /api/orders/o1': () => json(200, testOrder({ status: 'Paid', deliveryStatus: 'Delivered', lines: [testOrderLine({ gameId: 'g1', quantity: 1 })] })),
    });
    act(() => {
      signIn('token-1', testUser());
      addToCart({ _id: 'g1', title: 'Hades', image: '', platform: 'Steam', region: '', price: 12.5, originalPrice: null, type: 'Games' });
      addToCart({ _id: 'g9', title: 'Celeste', image: '', platform: 'PC', region: '', price: 9, originalPrice: null, type: 'Games' });
    });
    renderLibrary('/library?order=o1&paid=1');
    await screen.findByRole('heading', { level: 2, name: 'Hades' });
    const cart = () => (JSON.parse(localStorage.getItem(STORAGE_KEYS.cart) ?? '[]') as CartItem[]).map((item) => item.game._id);
    await waitFor(() => expect(cart()).toEqual(['g9']));
  });

  it('reports a problem with a key: the reason and message are sent, and the card then shows the claim’s state', async () => {
    const user = userEvent.setup();
    let claims: Claim[] = [];
    const calls = stubApi({
      'GET /api/purchases': () =>
        json(200, [
          purchase,
          testPurchase({ _id: 'k2', product: testGameListItem({ _id: 'g2', title: 'Celeste' }), revealed: true }),
          testPurchase({ _id: 'k3', product: testGameListItem({ _id: 'g3', title: 'Tunic' }) }),
        ]),
      'GET /api/claims': () => answer(claimListSchema, claims),
      'POST /api/purchases/k1/claim': ({ body }) => {
        claims = [testClaim({ purchaseId: 'k1', ...(body as Pick<Claim, 'reason' | 'message'>) })];
        return answer(claimAnswerSchema, { claim: claims[0]! }, 201);
      },
    });
    act(() => signIn('token-1', testUser()));
    renderLibrary();
    await user.click(await screen.findByRole('button', { name: 'Report a problem with the key of Hades' }));
    const dialog = screen.getByRole('dialog', { name: 'Report a problem with Hades' });
    expect(within(dialog).getAllByRole('option').map((option) => option.textContent)).toEqual(['Already redeemed', 'Wrong region', 'Invalid key', 'Other']);
    await user.selectOptions(within(dialog).getByLabelText('What is wrong?'), 'Wrong region');
    await user.type(within(dialog).getByLabelText('Message (optional)'), ' It asks for an EU account. ');
    expect(within(dialog).getByText('28/1000')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const status = screen.getByText('Reported problem:');
    expect(status.textContent).toBe('Reported problem: Waiting for the seller');
    expect(document.activeElement).toBe(status);
    // One open claim per key: no second report on Hades, while Celeste's key can still be reported.
    expect(screen.queryByRole('button', { name: 'Report a problem with the key of Hades' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Report a problem with the key of Celeste' })).toBeTruthy();
    // A key never revealed cannot be reported: the server would refuse it, so the card does not offer it.
    expect(screen.queryByRole('button', { name: 'Report a problem with the key of Tunic' })).toBeNull();
    expect(calls.find((call) => call.route === 'POST /api/purchases/k1/claim')).toMatchObject({
      body: { reason: 'wrong-region', message: 'It asks for an EU account.' },
      authorization: 'Bearer token-1',
    });
  });

  it('shows the server’s refusal of a report, such as on a key delivered too long ago, and keeps the form open', async () => {
    const user = userEvent.setup();
    stubApi({
      'GET /api/purchases': () => json(200, [purchase]),
      'GET /api/claims': () => json(200, []),
      'POST /api/purchases/k1/claim': () => json(409, { error: claimMessages.tooLate }),
    });
    act(() => signIn('token-1', testUser()));
    renderLibrary();
    await user.click(await screen.findByRole('button', { name: 'Report a problem with the key of Hades' }));
    const dialog = screen.getByRole('dialog', { name: 'Report a problem with Hades' });
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(claimMessages.tooLate);
    expect(screen.queryByText('Reported problem:')).toBeNull();
  });

  it('shows the latest claim on each key: a replaced key can be reported again, a declined one not', async () => {
    stubApi({
      'GET /api/purchases': () => json(200, [purchase, testPurchase({ _id: 'k2', product: testGameListItem({ _id: 'g2', title: 'Celeste' }), revealed: true })]),
      'GET /api/claims': () =>
        answer(claimListSchema, [
          testClaim({ _id: 'c2', state: 'declined', note: 'The key was redeemed on your account.' }),
          testClaim({ _id: 'c1', state: 'replaced', createdAt: '2026-02-01T09:00:00Z' }),
          testClaim({ _id: 'c3', purchaseId: 'k2', state: 'replaced' }),
        ]),
    });
    act(() => signIn('token-1', testUser()));
    renderLibrary();
    expect((await screen.findAllByText('Reported problem:')).map((status) => status.textContent)).toEqual(['Reported problem: Declined', 'Reported problem: Replaced']);
    expect(screen.getByText('Keystore: The key was redeemed on your account.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Report a problem with the key of Hades' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Report a problem with the key of Celeste' })).toBeTruthy();
  });

  it('shows a key sent as a gift as sent, to whom and whether it was opened, with no way to reveal or report it', async () => {
    const calls = stubApi({
      'GET /api/purchases': () =>
        answer(purchaseListSchema, [
          testPurchase({ _id: 'k1', revealed: true, gift: { to: 'Sam <sam@example.org>', revealedAt: '2026-11-23T10:00:00Z' } }),
          testPurchase({ _id: 'k2', product: testGameListItem({ _id: 'g2', title: 'Celeste' }), gift: { to: 'Alex <alex@example.org>', revealedAt: null } }),
          testPurchase({ _id: 'k3', product: testGameListItem({ _id: 'g3', title: 'Tunic' }), revealed: true }),
        ]),
      'GET /api/claims': () => answer(claimListSchema, []),
    });
    act(() => signIn('token-1', testUser()));
    renderLibrary();
    const [hades, celeste, tunic] = await screen.findAllByRole('listitem');
    const sentTo = (card: HTMLElement) => within(card).getByText(/^Sent as a gift to/).textContent;
    expect(sentTo(hades!)).toBe('Sent as a gift to Sam <sam@example.org>');
    expect(within(hades!).getByText('Sam', { selector: 'strong' })).toBeTruthy();
    expect(within(hades!).getByText('Opened 23 Nov 2026')).toBeTruthy();
    expect(sentTo(celeste!)).toBe('Sent as a gift to Alex <alex@example.org>');
    expect(within(celeste!).getByText('Not opened yet')).toBeTruthy();
    // The gifts' keys are their recipients': no reveal, no report (Hades' was revealed, by Sam).
    for (const card of [hades!, celeste!]) expect(within(card).queryByRole('button')).toBeNull();
    expect(within(tunic!).getByRole('button', { name: 'Reveal Key of Tunic' })).toBeTruthy();
    expect(within(tunic!).getByRole('button', { name: 'Report a problem with the key of Tunic' })).toBeTruthy();
    await waitFor(() => expect(calls.map((call) => call.route)).toEqual(['GET /api/purchases', 'GET /api/claims']));
  });
});
