import { queryOptions } from '@tanstack/react-query';
import type { Order } from '@keystore/contract';
import { apiGet } from './api.ts';
import { queryKeys } from './query-keys.ts';

/**
 * One order in full (GET /api/orders/{id}), as the pay page, the library's delivery watch and the
 * profile's order details read it: always fetched afresh (its status moves on), and a failure is shown,
 * not tried again.
 */
export function orderQuery(orderId: string) {
  return queryOptions({
    queryKey: queryKeys.order(orderId),
    queryFn: () => apiGet<Order>(`/api/orders/${encodeURIComponent(orderId)}`),
    retry: false,
    staleTime: 0,
  });
}
