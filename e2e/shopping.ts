// The shopper's steps several journeys take: pick a game with keys in stock, put it in the cart,
// and check the cart out (terms ticked, 'Proceed to Checkout').
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export interface ListedGame {
  _id: string;
  title: string;
  platform: string;
  price: number;
  stock: number;
}

/** A euro amount as the store writes it: "€19.99". */
export const euro = (amount: number) => `€${amount.toFixed(2)}`;

/** Games of the store's first catalogue page with more than `stock` keys left. */
export async function gamesInStock(baseUrl: string, stock = 5): Promise<ListedGame[]> {
  const { items } = (await fetch(`${baseUrl}/api/games?pageSize=100`).then((response) => response.json())) as { items: ListedGame[] };
  return items.filter((candidate) => candidate.stock > stock);
}

/** Adds one key of `game` to the cart from its game page. */
export async function addToCart(page: Page, baseUrl: string, game: ListedGame): Promise<void> {
  await page.goto(`${baseUrl}/game/${game._id}`);
  await page.getByRole('button', { name: 'Add to cart', exact: true }).click();
  await expect.poll(() => page.getByRole('spinbutton', { name: `Quantity of ${game.title}` }).isVisible()).toBe(true);
}

/** Opens the cart, accepts the terms and presses 'Proceed to Checkout' (the caller waits for where it leads). */
export async function proceedToCheckout(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/cart`);
  await page.getByRole('checkbox', { name: 'I have read and accept the Terms & Conditions' }).check();
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
}
