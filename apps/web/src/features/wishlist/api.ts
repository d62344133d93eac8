import { queryOptions } from '@tanstack/react-query';
import type { Game, WishBody, WishlistItem } from '@keystore/contract';
import { apiGet, apiSend } from '../../lib/api.ts';

/** The customer's wishlist; `version` is the heart store's, so a heart anywhere reads it again. */
export const wishlistQuery = (version: number) => queryOptions({ queryKey: ['wishlist', version], queryFn: () => apiGet<WishlistItem[]>('/api/wishlist') });

/** A visitor's wished game as the store shows it now (its page's answer). */
export const wishedGameQuery = (gameId: string) => queryOptions({ queryKey: ['game', gameId], queryFn: () => apiGet<Game>(`/api/games/${gameId}`), retry: false });

export function changeAlerts(gameId: string, body: WishBody): Promise<WishlistItem> {
  return apiSend<WishlistItem, WishBody>('PUT', `/api/wishlist/${gameId}`, body);
}

export function unsubscribe(token: string): Promise<{ message: string }> {
  return apiSend<{ message: string }>('POST', `/api/alerts/unsubscribe?token=${encodeURIComponent(token)}`);
}
