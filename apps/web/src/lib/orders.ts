import { queryOptions } from '@tanstack/react-query';
import type { Order } from '@keystore/contract';
import { apiGet } from './api.ts';
import { queryKeys } from './query-keys.ts';

/**
 * A path with a guest's order token as `?token=` (issue 29): the order page, its keys, its payment and
 * its cancel take it; without one (a signed-in owner) the path is left as it is.
 */
export function withOrderToken(path: string, token: string | undefined): string {
  return token ? `${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}` : path;
}

/**
 * One order in full (GET /api/orders/{id}), as the pay page, the library's delivery watch, the
 * profile's order details and the order page read it: always fetched afresh (its status moves on), and
 * a failure is shown, not tried again. A guest's token goes along; the key is the order's either way,
 * so what changes the order reaches every reader.
 */
export function orderQuery(orderId: string, token?: string) {
  return queryOptions({
    queryKey: queryKeys.order(orderId),
    queryFn: () => apiGet<Order>(withOrderToken(`/api/orders/${encodeURIComponent(orderId)}`, token)),
    retry: false,
    staleTime: 0,
  });
}
