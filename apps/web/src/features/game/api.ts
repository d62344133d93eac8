import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Game, GameOffer } from '@keystore/contract';
import { ApiError, apiGet } from '../../lib/api.ts';

/** One game with everything its page shows (GET /api/games/{id}); an unknown id fails at once with a 404 instead of being retried. */
export function gameQuery(id: string) {
  return queryOptions({
    queryKey: ['game', id],
    queryFn: ({ signal }) => apiGet<Game>(`/api/games/${encodeURIComponent(id)}`, { signal }),
    retry: (failures, error) => !(error instanceof ApiError && error.status === 404) && failures < 1,
  });
}

export const useGame = (id: string) => useQuery(gameQuery(id));

/**
 * The game's offers that can be bought now, best first, the house's included (GET /api/games/{id}/offers).
 * Under the game's own key, so refreshing the game after a price change refreshes its offers too.
 */
export function gameOffersQuery(id: string) {
  return queryOptions({
    queryKey: ['game', id, 'offers'],
    queryFn: ({ signal }) => apiGet<GameOffer[]>(`/api/games/${encodeURIComponent(id)}/offers`, { signal }),
  });
}
