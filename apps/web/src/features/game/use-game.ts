import { useQuery } from '@tanstack/react-query';
import type { Game } from '@keystore/contract';
import { ApiError, apiGet } from '../../lib/api.ts';

/** One game with everything its page shows; an unknown id fails at once with a 404 instead of being retried. */
export function useGame(id: string) {
  return useQuery({
    queryKey: ['game', id],
    queryFn: ({ signal }) => apiGet<Game>(`/api/games/${encodeURIComponent(id)}`, { signal }),
    retry: (failures, error) => !(error instanceof ApiError && error.status === 404) && failures < 1,
  });
}
