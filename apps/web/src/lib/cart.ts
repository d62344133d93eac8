import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { GameListItem } from '@keystore/contract';
import { STORAGE_KEYS } from './storage-keys.ts';

/** A cart line: the game as it was listed, and how many keys of it (SPEC §3). */
export interface CartItem {
  game: Pick<GameListItem, '_id' | 'title' | 'image' | 'platform' | 'region' | 'price' | 'originalPrice' | 'type'>;
  quantity: number;
}

/** The cart's lines; localStorage keeps them (as a bare array, the format carts were always stored in). */
const cartStore = createStore<{ items: CartItem[] }>(() => ({ items: read() }));
const lines = () => cartStore.getState().items;

function read(): CartItem[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEYS.cart) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (item): item is CartItem =>
        typeof item === 'object' &&
        item !== null &&
        typeof item.game?._id === 'string' &&
        Number.isFinite(item.game.price) &&
        Number.isInteger(item.quantity) &&
        item.quantity >= 1,
    );
  } catch {
    return [];
  }
}

function write(next: CartItem[]): void {
  try {
    localStorage.setItem(STORAGE_KEYS.cart, JSON.stringify(next));
  } catch {
    // Storage full or disabled: the cart still works for this tab.
  }
  cartStore.setState({ items: next });
}

// Another tab changed the cart: show it here too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEYS.cart && event.key !== null) return;
    cartStore.setState({ items: read() });
  });
}

/** Adds one key of a game: a new line starts at 1, an existing one goes up by 1 (SPEC §4). */
export function addToCart(game: CartItem['game']): void {
  const items = lines();
  const existing = items.find((item) => item.game._id === game._id);
  write(
    existing
      ? items.map((item) => (item === existing ? { ...item, quantity: item.quantity + 1 } : item))
      : [...items, { game: pickGame(game), quantity: 1 }],
  );
}

/** Sets a line's quantity; values below 1 (or not whole) are ignored, as the cart's minimum is 1. */
export function setCartQuantity(gameId: string, quantity: number): void {
  if (!Number.isInteger(quantity) || quantity < 1) return;
  write(lines().map((item) => (item.game._id === gameId ? { ...item, quantity } : item)));
}

export function removeFromCart(gameId: string): void {
  write(lines().filter((item) => item.game._id !== gameId));
}

export function clearCart(): void {
  write([]);
}

/** Total keys (sum of quantities) and total price in euro, to the cent. */
export function cartTotals(items: readonly CartItem[]): { totalItems: number; totalPrice: number } {
  const totalItems = items.reduce((sum, item) => sum + item.quantity, 0);
  const cents = items.reduce((sum, item) => sum + Math.round(item.game.price * 100) * item.quantity, 0);
  return { totalItems, totalPrice: cents / 100 };
}

/** The cart, kept in localStorage and shared by every tab. */
export function useCart() {
  const items = useStore(cartStore, (state) => state.items);
  return { items, ...cartTotals(items), add: addToCart, setQuantity: setCartQuantity, remove: removeFromCart, clear: clearCart };
}

/** How many keys of one game are in the cart (0 when none). */
export function useCartQuantity(gameId: string): number {
  return useStore(cartStore, (state) => state.items.find((item) => item.game._id === gameId)?.quantity ?? 0);
}

function pickGame(game: CartItem['game']): CartItem['game'] {
  const { _id, title, image, platform, region, price, originalPrice, type } = game;
  return { _id, title, image, platform, region, price, originalPrice, type };
}
