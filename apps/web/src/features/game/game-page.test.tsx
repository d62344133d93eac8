import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { activationFor } from '@keystore/contract/activation-rules';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { useAuthDialog } from '../../lib/auth-dialog.ts';
import { clearCart, useCart } from '../../lib/cart.ts';
import { gameOfferListSchema, type GameOffer } from '@keystore/contract';
import { sellerMessages } from '@keystore/contract/seller-rules';
import { signIn } from '../../lib/session.ts';
import { answer as answerOf, testGame, testUser } from '../../test/contract-fixtures.ts';
import { json, resetTestState, stubApi, type ApiRoutes } from '../../test/fixtures.tsx';
import { GamePage } from './game-page.tsx';

const game = testGame({
  title: 'Ghost of Tsushima',
  platform: 'PS4',
  price: 29.99,
  originalPrice: 39.99,
  region: '',
  stock: 12,
});

/** The house's offer of the game: the only one unless a test says otherwise. */
const houseOffer = (price = 29.99): GameOffer => ({ offerId: 'house00000000000g1', seller: { name: 'Keystore', score: 90 }, price, stock: 12 });

/** A price history: €39.99 until 20 days ago, €34.99 until 5 days ago, and the price now since. */
const priceSeries = (now = 29.99) => {
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
  return [
    { date: daysAgo(90), price: 39.99 },
    { date: daysAgo(20), price: 34.99 },
    { date: daysAgo(5), price: now },
    { date: daysAgo(0), price: now },
  ];
};

/** The API's answer to the game's page, whichever game it asks for, to its offers (the house's alone by default) and its price history. */
function answer(status: number, body: unknown, id = 'g1', offers: GameOffer[] = [houseOffer()], extra: ApiRoutes = {}) {
  return stubApi({
    [`GET /api/games/${id}`]: () => json(status, body),
    [`GET /api/games/${id}/offers`]: () => answerOf(gameOfferListSchema, offers),
    [`GET /api/games/${id}/prices`]: () => json(200, priceSeries()),
    ...extra,
  });
}

function renderPage(id = 'g1') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[`/game/${id}`]}>
        <Routes>
          <Route path="/game/:id" element={<GamePage />} />
          <Route path="/cart" element={<h1>Cart</h1>} />
          <Route path="/pay/:id" element={<h1>Pay</h1>} />
          <Route path="/store" element={<h1>Store</h1>} />
        </Routes>
        <DialogProbe />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The cart's lines as the test reads them: game, offer, seller, price and quantity. */
function CartLines() {
  const { items } = useCart();
  return (
    <ul aria-label="Cart">
      {items.map((item) => [item.game._id, item.offerId, item.seller, item.game.price, item.quantity].join(' '))}
    </ul>
  );
}

function DialogProbe() {
  const { view, checkout } = useAuthDialog();
  // Not an <output>: the page's own loading status is looked up by role. The lines a guest would buy ride along.
  return (
    <span data-auth-dialog="" data-checkout={JSON.stringify(checkout?.items ?? null)}>
      {view ?? 'none'}
    </span>
  );
}

const infoValue = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling!.textContent;

describe('the game page', () => {
  afterEach(() => {
    resetTestState();
    clearCart();
  });

  it('shows where the key works, and warns a visitor from another region before the cart', async () => {
    answer(200, { ...game, region: 'Europe' }, 'g1', [houseOffer()], { 'GET /api/visitor': () => json(200, { country: 'US', region: 'US' }) });
    renderPage();
    expect(await screen.findByText('Works in: Europe')).toBeTruthy();
    expect((await screen.findByRole('note')).textContent).toBe('This key works in Europe only. It may not activate in your region (US).');
  });

  it('shows how to activate the key on its platform, the price history and, on sale, the lowest price of the 30 days before', async () => {
    answer(200, { ...game, platform: 'Steam', activation: activationFor('Steam'), price: 29.99, originalPrice: 49.99 });
    renderPage();
    const guide = await screen.findByRole('region', { name: 'How to activate on Steam' });
    expect(within(guide).getByRole('link', { name: 'Open the Steam redeem page' }).getAttribute('href')).toBe('https://store.steampowered.com/account/registerkey');
    expect(await screen.findByText('Lowest price in the last 30 days: €34.99')).toBeTruthy();
    expect((await screen.findByRole('img', { name: /price over the last 90 days/ })).getAttribute('aria-label')).toContain('between €29.99 and €39.99');
    expect(screen.getByRole('button', { name: 'Wishlist: Ghost of Tsushima' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('fills what the supplier left empty with the defaults and names the tab', async () => {
    answer(200, game);
    renderPage();
    expect(screen.getByRole('status').textContent).toBe('Loading game details');
    expect(await screen.findByRole('heading', { level: 1, name: 'Ghost of Tsushima' })).toBeTruthy();
    expect(infoValue('Platform')).toBe('PS4');
    expect(infoValue('Region')).toBe('Global');
    expect(infoValue('Available Languages')).toBe('English, Polish, Russian');
    expect(infoValue('PEGI Rating')).toBe('18+');
    expect(screen.getByText(/No description is available for this product yet/)).toBeTruthy();
    expect(screen.getByText(/No system requirements/)).toBeTruthy();
    expect(screen.getByText('There are 12 keys left')).toBeTruthy();
    expect(document.title).toBe('Ghost of Tsushima (PS4) · Keystore');

    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    const links = [...crumbs.querySelectorAll('a')].map((link) => [link.textContent, link.getAttribute('href')]);
    expect(links).toEqual([
      ['Main', '/'],
      ['Games', '/store'],
      ['PS4', '/store?platform=PS4'],
      ['Adventure', '/store?genre=Adventure'],
    ]);
  });

  it('shows the real values, the crossed-out original price and the cart controls', async () => {
    answer(200, testGame({ ...game, region: 'Europe', languages: ['English', 'German'], pegi: 16, genre: ['Action'] }));
    renderPage();
    await screen.findByRole('heading', { level: 1 });
    expect(infoValue('Region')).toBe('Europe');
    expect(infoValue('Available Languages')).toBe('English, German');
    expect(infoValue('PEGI Rating')).toBe('16+');
    expect(screen.getByText('€29.99', { exact: false }).textContent).toContain('€39.99');

    fireEvent.click(screen.getByRole('button', { name: 'Add to cart' }));
    expect((screen.getByRole('spinbutton', { name: 'Quantity of Ghost of Tsushima' }) as HTMLInputElement).value).toBe('1');
    fireEvent.click(screen.getByRole('button', { name: 'Remove Ghost of Tsushima' }));
    expect(screen.getByRole('button', { name: 'Add to cart' })).toBeTruthy();

    // A visitor buying at once is asked to log in first, or to go on as a guest with this one key.
    fireEvent.click(screen.getByRole('button', { name: 'Buy in 1 click' }));
    const probe = document.querySelector('[data-auth-dialog]')!;
    expect(probe.textContent).toBe('login');
    expect(JSON.parse(probe.getAttribute('data-checkout')!)).toEqual([{ gameId: 'g1', quantity: 1, expectedPrice: 29.99 }]);
  });

  it('disables buying when no keys are left', async () => {
    answer(200, testGame({ ...game, stock: 0 }));
    renderPage();
    expect(await screen.findByText('Out of stock')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Add to cart' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Buy in 1 click' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("says 'Game not found' for an unknown id and leads back to the store", async () => {
    answer(404, { error: 'Game not found' }, 'nope');
    renderPage('nope');
    expect(await screen.findByRole('heading', { name: 'Error' })).toBeTruthy();
    expect(screen.getByText('Game not found')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Back to Store' }));
    expect(await screen.findByRole('heading', { name: 'Store' })).toBeTruthy();
  });

  it("says 'Failed to load game details' when the server fails", async () => {
    answer(500, { error: 'Internal Server Error' });
    renderPage();
    // Anything but a 404 is tried once more (after a second) before the error shows.
    expect(await screen.findByText('Failed to load game details', {}, { timeout: 4000 })).toBeTruthy();
  });

  it('names the seller of the price shown, and offers the other sellers each with its own Add to cart', async () => {
    answer(200, game, 'g1', [
      { offerId: 'offer0000000000001', seller: { name: 'KeyShack', score: 94 }, price: 27.5, stock: 3 },
      houseOffer(),
      { offerId: 'offer0000000000002', seller: { name: 'PixelKeys', score: 81 }, price: 31, stock: 1 },
    ]);
    renderPage();
    render(<CartLines />);
    expect(await screen.findByText(sellerMessages.soldBy('KeyShack'))).toBeTruthy();
    const toggle = screen.getByRole('button', { name: '2 other offers from €29.99' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const rows = within(screen.getByRole('list', { name: 'Other offers' })).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Keystore€29.9912 keys'),
      expect.stringContaining('PixelKeys ★ 81€31.001 key'),
    ]);
    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Add to cart: Ghost of Tsushima from PixelKeys' }));
    expect(within(rows[1]!).getByRole('spinbutton', { name: 'Quantity of Ghost of Tsushima from PixelKeys' })).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Cart' }).textContent).toBe('g1 offer0000000000002 PixelKeys 31 1');
  });

  it('shows each seller’s score beside its name, read out of 100, and none for the house', async () => {
    answer(200, game, 'g1', [
      { offerId: 'offer0000000000001', seller: { name: 'KeyShack', score: 94 }, price: 27.5, stock: 3 },
      houseOffer(),
      { offerId: 'offer0000000000002', seller: { name: 'PixelKeys', score: 81 }, price: 31, stock: 1 },
    ]);
    renderPage();
    const soldBy = await screen.findByText(sellerMessages.soldBy('KeyShack'));
    const badge = within(soldBy).getByRole('img', { name: 'Seller score 94 of 100' });
    expect(badge.textContent).toBe('★ 94');
    fireEvent.click(screen.getByRole('button', { name: '2 other offers from €29.99' }));
    const others = within(screen.getByRole('list', { name: 'Other offers' }));
    expect(others.getByRole('img', { name: 'Seller score 81 of 100' }).textContent).toBe('★ 81');
    // The house's offer (Keystore) has none.
    expect(others.getAllByRole('img')).toHaveLength(1);
  });

  it('shows no sellers’ score when the house is the only seller', async () => {
    answer(200, game);
    renderPage();
    expect(await screen.findByText('Sold by Keystore')).toBeTruthy();
    expect(screen.queryByRole('img', { name: /Seller score/ })).toBeNull();
  });

  it('shows no other offers when the house is the only seller', async () => {
    answer(200, game);
    renderPage();
    expect(await screen.findByText('Sold by Keystore')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /other offer/ })).toBeNull();
  });

  it('buys in one click at the price shown, and shows the new price when the server says it rose', async () => {
    let gameLoads = 0;
    const calls = stubApi({
      'GET /api/games/g1': () => json(200, testGame({ ...game, price: (gameLoads += 1) === 1 ? 29.99 : 32.99 })),
      'GET /api/games/g1/offers': () => answerOf(gameOfferListSchema, [houseOffer(gameLoads === 1 ? 29.99 : 32.99)]),
      'POST /api/orders': () => json(409, { error: sellerMessages.priceChanged, prices: [{ gameId: 'g1', price: 32.99 }] }),
      'GET /api/games/g1/prices': () => json(200, priceSeries()),
    });
    signIn('token-1', testUser());
    renderPage();
    await screen.findByText('Sold by Keystore');
    fireEvent.click(screen.getByRole('button', { name: 'Buy in 1 click' }));
    expect((await screen.findByRole('alert')).textContent).toBe(sellerMessages.priceChanged);
    expect(calls.find((call) => call.route === 'POST /api/orders')!.body).toEqual({ items: [{ gameId: 'g1', quantity: 1, expectedPrice: 29.99 }] });
    expect(await screen.findByText('€32.99', { exact: false })).toBeTruthy();
  });
});
