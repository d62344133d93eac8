import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Game } from '@keystore/contract';
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
