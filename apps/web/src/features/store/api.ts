import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { GameListAnswer } from '@keystore/contract';
import { apiGet } from '../../lib/api.ts';

/**
 * One page of the catalogue with its facet counts, for an `/api/games` query string. While the next
 * query loads, the previous answer stays as placeholder so counts and pagination do not flicker.
 */
export function gamesQuery(query: string) {
  return queryOptions({
    queryKey: ['games', query],
    queryFn: ({ signal }) => apiGet<GameListAnswer>(`/api/games?${query}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export const useGames = (query: string) => useQuery(gamesQuery(query));
