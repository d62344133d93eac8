import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { GameListAnswer } from '@keystore/contract';
import { apiGet } from '../../lib/api.ts';

/** One page of the catalogue for the given URL query (search, sort, page and filters as the store URL holds them). */
export function useGames(query: URLSearchParams) {
  const key = query.toString();
  return useQuery({
    queryKey: ['games', key],
    queryFn: ({ signal }) => apiGet<GameListAnswer>(`/api/games?${key}`, { signal }),
    placeholderData: keepPreviousData,
  });
}
