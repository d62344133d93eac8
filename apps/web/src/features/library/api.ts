import { queryOptions, useMutation } from '@tanstack/react-query';
import type { Purchase, PurchaseKey } from '@keystore/contract';
import { apiGet } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';

// The library's calls (SPEC §7, purchases). The order it watches after a payment is lib/orders.ts' orderQuery.

/** The signed-in customer's delivered keys (GET /api/purchases): fetched afresh each time the library opens. */
export function purchasesQuery() {
  return queryOptions({ queryKey: queryKeys.purchases, queryFn: () => apiGet<Purchase[]>('/api/purchases'), staleTime: 0, retry: false });
}

/**
 * 'Reveal Key' (GET /api/purchases/{id}/key), asked for only when the buyer wants the key: a mutation
 * rather than a query, so the key stays with the card that showed it and leaves no copy in the query cache.
 */
export function useRevealKey() {
  return useMutation({
    mutationFn: (purchaseId: string) => apiGet<PurchaseKey>(`/api/purchases/${encodeURIComponent(purchaseId)}/key`),
    gcTime: 0,
  });
}
