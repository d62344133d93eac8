import { useSyncExternalStore } from 'react';
import { STORAGE_KEYS } from '@keystore/contract/constants';
import type { GameListItem } from '@keystore/contract';

/** A cart line: the game as it was listed, and how many keys of it (SPEC §3). */
export interface CartItem {
  game: Pick<GameListItem, '_id' | 'title' | 'image' | 'platform' | 'region' | 'price' | 'originalPrice' | 'type'>;
  quantity: number;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let items: CartItem[] = read();

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
  items = next;
  try {
    localStorage.setItem(STORAGE_KEYS.cart, JSON.stringify(next));
  } catch {
    // Storage full or disabled: the cart still works for this tab.
  }
  for (const listener of listeners) listener();
}

// Another tab changed the cart: show it here too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEYS.cart && event.key !== null) return;
    items = read();
    for (const listener of listeners) listener();
  });
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Adds one key of a game: a new line starts at 1, an existing one goes up by 1 (SPEC §4). */
export function addToCart(game: CartItem['game']): void {
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
  write(items.map((item) => (item.game._id === gameId ? { ...item, quantity } : item)));
}

export function removeFromCart(gameId: string): void {
  write(items.filter((item) => item.game._id !== gameId));
}

export function clearCart(): void {
  write([]);
}

/** Total keys (sum of quantities) and total price in euro, to the cent. */
export function cartTotals(lines: readonly CartItem[]): { totalItems: number; totalPrice: number } {
  const totalItems = lines.reduce((sum, item) => sum + item.quantity, 0);
  const cents = lines.reduce((sum, item) => sum + Math.round(item.game.price * 100) * item.quantity, 0);
  return { totalItems, totalPrice: cents / 100 };
}

/** The cart, kept in localStorage and shared by every tab. */
export function useCart() {
  const lines = useSyncExternalStore(subscribe, () => items, () => items);
  return { items: lines, ...cartTotals(lines), add: addToCart, setQuantity: setCartQuantity, remove: removeFromCart, clear: clearCart };
}

/** How many keys of one game are in the cart (0 when none). */
export function useCartQuantity(gameId: string): number {
  return useSyncExternalStore(subscribe, () => items.find((item) => item.game._id === gameId)?.quantity ?? 0, () => 0);
}

function pickGame(game: CartItem['game']): CartItem['game'] {
  const { _id, title, image, platform, region, price, originalPrice, type } = game;
  return { _id, title, image, platform, region, price, originalPrice, type };
}
