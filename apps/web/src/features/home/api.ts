import { queryOptions, useQuery } from '@tanstack/react-query';
import { TOP_SALES_COUNT } from '@keystore/contract/constants';
import type { GameListAnswer } from '@keystore/contract';
import { apiGet } from '../../lib/api.ts';

/** The catalogue's most popular games for the home page's 'Top sales' row. */
export function topSalesQuery() {
  return queryOptions({
    queryKey: ['games', 'top-sales'],
    queryFn: ({ signal }) => apiGet<GameListAnswer>(`/api/games?sort=popularity&pageSize=${TOP_SALES_COUNT}`, { signal }),
    select: (answer) => answer.items,
  });
}

export const useTopSales = () => useQuery(topSalesQuery());
