import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Claim, ClaimRequest, Purchase, PurchaseKey } from '@keystore/contract';
import { apiGet, apiSend } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';

// The library's calls (SPEC §7, purchases; issue 24, claims). The order it watches after a payment is lib/orders.ts' orderQuery.

/** The signed-in customer's claims, newest first: only the library reads them. */
const claimsKey = ['claims'] as const;

/** The signed-in customer's delivered keys (GET /api/purchases): fetched afresh each time the library opens. */
export function purchasesQuery() {
  return queryOptions({ queryKey: queryKeys.purchases, queryFn: () => apiGet<Purchase[]>('/api/purchases'), staleTime: 0, retry: false });
}

/**
 * 'Reveal Key' (GET /api/purchases/{id}/key), asked for only when the buyer wants the key: a mutation
 * rather than a query, so the key stays with the card that showed it and leaves no copy in the query cache.
 */
export function useRevealKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (purchaseId: string) => apiGet<PurchaseKey>(`/api/purchases/${encodeURIComponent(purchaseId)}/key`),
    gcTime: 0,
    // The purchase is revealed now (the server recorded it): its card may offer to report a problem.
    onSuccess: (_key, purchaseId) =>
      queryClient.setQueryData<Purchase[]>(queryKeys.purchases, (purchases) => purchases?.map((purchase) => (purchase._id === purchaseId ? { ...purchase, revealed: true } : purchase))),
  });
}

/** The customer's claims on their keys (GET /api/claims), newest first, each with its state. */
export function claimsQuery() {
  return queryOptions({ queryKey: claimsKey, queryFn: () => apiGet<Claim[]>('/api/claims'), staleTime: 0, retry: false });
}

/**
 * Reports a problem with a key (POST /api/purchases/{id}/claim). The new claim goes to the front of the
 * list at once, so its card shows the claim's state as the form closes; the list is then read again.
 */
export function useReportProblem(purchaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ClaimRequest) => apiSend<{ claim: Claim }, ClaimRequest>('POST', `/api/purchases/${encodeURIComponent(purchaseId)}/claim`, request),
    onSuccess: ({ claim }) => {
      queryClient.setQueryData<Claim[]>(claimsKey, (claims = []) => [claim, ...claims]);
      void queryClient.invalidateQueries({ queryKey: claimsKey });
    },
  });
}
