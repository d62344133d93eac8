import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testCartGame } from '../test/contract-fixtures.ts';
import {
  addToCart,
  cartTotals,
  clearCart,
  removeFromCart,
  removeGameFromCart,
  setCartPrices,
  setCartQuantity,
  useCart,
  useCartQuantity,
  type CartItem,
} from './cart.ts';
import { STORAGE_KEYS } from './storage-keys.ts';

const game = (id: string, price: number, originalPrice: number | null = null): CartItem['game'] =>
  testCartGame({ _id: id, title: `Game ${id}`, image: `/media/covers/${id}.svg`, platform: 'PC', region: 'Global', price, originalPrice, type: 'Games' });

const stored = (): CartItem[] => JSON.parse(localStorage.getItem(STORAGE_KEYS.cart) ?? 'null');

describe('the cart', () => {
  beforeEach(() => {
    clearCart();
    localStorage.clear();
  });
  afterEach(cleanup);

  it('adds a new game with quantity 1 and an existing one by 1 more', () => {
    const { result } = renderHook(() => useCart());
    act(() => addToCart(game('a', 10)));
    expect(result.current.items).toEqual([{ game: game('a', 10), quantity: 1 }]);
    act(() => addToCart(game('a', 10)));
    act(() => addToCart(game('b', 5)));
    expect(result.current.items.map((item) => [item.game._id, item.quantity])).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
  });

  it('keeps only the fields a cart line needs', () => {
    act(() => addToCart({ ...game('a', 10), description: 'long text', stock: 4 } as CartItem['game']));
    expect(Object.keys(stored()[0]!.game).sort()).toEqual(['_id', 'image', 'originalPrice', 'platform', 'price', 'region', 'title', 'type']);
  });

  it('sets a quantity and ignores values below 1 or not whole', () => {
    const { result } = renderHook(() => useCartQuantity('a'));
    act(() => addToCart(game('a', 10)));
    act(() => setCartQuantity('a', 5));
    expect(result.current).toBe(5);
    for (const invalid of [0, -1, 2.5, Number.NaN]) {
      act(() => setCartQuantity('a', invalid));
      expect(result.current).toBe(5);
    }
    act(() => setCartQuantity('missing', 3));
    expect(stored()).toHaveLength(1);
  });

  it('removes one line, and clears them all', () => {
    const { result } = renderHook(() => useCart());
    act(() => {
      addToCart(game('a', 10));
      addToCart(game('b', 5));
      addToCart(game('c', 1));
    });
    act(() => removeFromCart('b'));
    expect(result.current.items.map((item) => item.game._id)).toEqual(['a', 'c']);
    act(() => clearCart());
    expect(result.current.items).toEqual([]);
    expect(result.current.totalItems).toBe(0);
    expect(result.current.totalPrice).toBe(0);
    expect(stored()).toEqual([]);
  });

  it('totals the quantities and the price to the cent', () => {
    expect(cartTotals([])).toEqual({ totalItems: 0, totalPrice: 0 });
    // 0.1 + 0.2 in floating point is 0.30000000000000004; the cart counts in cents.
    expect(cartTotals([{ game: game('a', 0.1), quantity: 1 }, { game: game('b', 0.2), quantity: 1 }]).totalPrice).toBe(0.3);
    expect(cartTotals([{ game: game('a', 19.99), quantity: 3 }, { game: game('b', 47.24), quantity: 2 }])).toEqual({ totalItems: 5, totalPrice: 154.45 });
    const { result } = renderHook(() => useCart());
    act(() => {
      addToCart(game('a', 8.39));
      addToCart(game('a', 8.39));
      addToCart(game('b', 20.99));
    });
    expect(result.current.totalItems).toBe(3);
    expect(result.current.totalPrice).toBe(37.77);
  });

  it('persists every change in localStorage under its own key', () => {
    act(() => addToCart(game('a', 10)));
    act(() => setCartQuantity('a', 4));
    expect(stored()).toEqual([{ game: game('a', 10), quantity: 4 }]);
  });

  it('starts from what localStorage holds, dropping malformed lines', async () => {
    localStorage.setItem(
      STORAGE_KEYS.cart,
      JSON.stringify([{ game: game('a', 10), quantity: 2 }, { game: { title: 'no id' }, quantity: 1 }, { game: game('b', 1), quantity: 0 }, 'junk']),
    );
    vi.resetModules();
    const fresh = await import('./cart.ts');
    const { result } = renderHook(() => fresh.useCart());
    expect(result.current.items).toEqual([{ game: game('a', 10), quantity: 2 }]);
    expect(result.current.totalPrice).toBe(20);
  });

  it('starts empty when localStorage holds something that is not a cart', async () => {
    localStorage.setItem(STORAGE_KEYS.cart, '{not json');
    vi.resetModules();
    const fresh = await import('./cart.ts');
    const { result } = renderHook(() => fresh.useCart());
    expect(result.current.items).toEqual([]);
  });

  it('follows a change made in another tab (a storage event)', () => {
    const { result } = renderHook(() => useCart());
    act(() => addToCart(game('a', 10)));
    const fromOtherTab = JSON.stringify([{ game: game('a', 10), quantity: 3 }, { game: game('b', 2.5), quantity: 1 }]);
    localStorage.setItem(STORAGE_KEYS.cart, fromOtherTab);
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.cart, newValue: fromOtherTab }));
    });
    expect(result.current.totalItems).toBe(4);
    expect(result.current.totalPrice).toBe(32.5);

    // Another tab clearing all of localStorage sends a storage event with no key.
    localStorage.clear();
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: null }));
    });
    expect(result.current.items).toEqual([]);
  });

  it('ignores storage events for other keys', () => {
    const { result } = renderHook(() => useCart());
    act(() => addToCart(game('a', 10)));
    localStorage.setItem(STORAGE_KEYS.cart, '[]');
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.token }));
    });
    expect(result.current.items).toHaveLength(1);
  });

  it("keeps a chosen offer apart from the game's best, at the offer's price, and reprices or removes a game's lines", () => {
    const { result } = renderHook(() => useCart());
    const offer = { offerId: 'offer0000000000001', seller: 'KeyShack', price: 8 };
    act(() => {
      addToCart(game('a', 10));
      addToCart(game('a', 10), offer);
      addToCart(game('a', 10), offer);
      addToCart(game('b', 5));
    });
    expect(result.current.items.map((item) => [item.game._id, item.offerId, item.seller, item.game.price, item.quantity])).toEqual([
      ['a', undefined, undefined, 10, 1],
      ['a', offer.offerId, 'KeyShack', 8, 2],
      ['b', undefined, undefined, 5, 1],
    ]);
    act(() => setCartQuantity('a', 5, offer.offerId));
    expect(renderHook(() => useCartQuantity('a', offer.offerId)).result.current).toBe(5);
    expect(renderHook(() => useCartQuantity('a')).result.current).toBe(1);
    act(() => setCartPrices([{ gameId: 'a', price: 11 }]));
    expect(result.current.items.map((item) => item.game.price)).toEqual([11, 11, 5]);
    act(() => removeFromCart('a'));
    expect(result.current.items.map((item) => item.offerId ?? item.game._id)).toEqual([offer.offerId, 'b']);
    act(() => removeGameFromCart('a'));
    expect(result.current.items.map((item) => item.game._id)).toEqual(['b']);
  });
});
