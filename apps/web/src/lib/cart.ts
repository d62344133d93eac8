import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { GameListItem } from '@keystore/contract';
import { STORAGE_KEYS } from './storage-keys.ts';

/**
 * A cart line: the game as it was listed, and how many keys of it (SPEC §3). A line of an offer the
 * buyer chose on the game page names it and its seller, and its price is the offer's; a line without
 * one is the game's best offer. The same game may be two lines: its best offer and a chosen one.
 */
export interface CartItem {
  game: Pick<GameListItem, '_id' | 'title' | 'image' | 'platform' | 'region' | 'price' | 'originalPrice' | 'type'>;
  quantity: number;
  offerId?: string;
  seller?: string;
}

/** An offer chosen on the game page (GET /api/games/{id}/offers). */
export interface ChosenOffer {
  offerId: string;
  seller: string;
  price: number;
}

/** Whether `item` is the line of this game and offer (no offer: the game's best). */
const isLine = (item: CartItem, gameId: string, offerId: string | undefined) => item.game._id === gameId && item.offerId === offerId;

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

/** Adds one key of a game, or of one of its offers: a new line starts at 1, an existing one goes up by 1 (SPEC §4). */
export function addToCart(game: CartItem['game'], offer?: ChosenOffer): void {
  const items = lines();
  const existing = items.find((item) => isLine(item, game._id, offer?.offerId));
  const added: CartItem = offer
    ? { game: { ...pickGame(game), price: offer.price }, quantity: 1, offerId: offer.offerId, seller: offer.seller }
    : { game: pickGame(game), quantity: 1 };
  write(existing ? items.map((item) => (item === existing ? { ...item, quantity: item.quantity + 1 } : item)) : [...items, added]);
}

/** Sets a line's quantity; values below 1 (or not whole) are ignored, as the cart's minimum is 1. */
export function setCartQuantity(gameId: string, quantity: number, offerId?: string): void {
  if (!Number.isInteger(quantity) || quantity < 1) return;
  write(lines().map((item) => (isLine(item, gameId, offerId) ? { ...item, quantity } : item)));
}

export function removeFromCart(gameId: string, offerId?: string): void {
  write(lines().filter((item) => !isLine(item, gameId, offerId)));
}

/** Removes every line of a game (its order was paid, whichever offers it took). */
export function removeGameFromCart(gameId: string): void {
  write(lines().filter((item) => item.game._id !== gameId));
}

/** The unit prices the server answered when they rose since the games were added (a 409 of POST /api/orders). */
export function setCartPrices(prices: readonly { gameId: string; price: number }[]): void {
  const priceOf = new Map(prices.map(({ gameId, price }) => [gameId, price]));
  write(lines().map((item) => (priceOf.has(item.game._id) ? { ...item, game: { ...item.game, price: priceOf.get(item.game._id)! } } : item)));
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

/** How many keys of one game (its best offer, or the offer named) are in the cart (0 when none). */
export function useCartQuantity(gameId: string, offerId?: string): number {
  return useStore(cartStore, (state) => state.items.find((item) => isLine(item, gameId, offerId))?.quantity ?? 0);
}

function pickGame(game: CartItem['game']): CartItem['game'] {
  const { _id, title, image, platform, region, price, originalPrice, type } = game;
  return { _id, title, image, platform, region, price, originalPrice, type };
}
