import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { GameListAnswer } from '@keystore/contract';
import { apiGet } from '../../lib/api.ts';

/**
 * One page of the catalogue with its facet counts, for an `/api/games` query string. While the next
 * query loads, the previous answer stays as placeholder so counts and pagination do not flicker.
 */
export function useGames(query: string) {
  return useQuery({
    queryKey: ['games', query],
    queryFn: ({ signal }) => apiGet<GameListAnswer>(`/api/games?${query}`, { signal }),
    placeholderData: keepPreviousData,
  });
}
