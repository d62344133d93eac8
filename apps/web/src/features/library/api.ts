import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Claim, ClaimRequest, Order, OrderKeys, Purchase, PurchaseKey } from '@keystore/contract';
import { apiGet, apiSend } from '../../lib/api.ts';
import { withOrderToken } from '../../lib/orders.ts';
import { queryKeys } from '../../lib/query-keys.ts';

// The library's calls (SPEC §7, purchases; issue 24, claims), and the keys of one order reached by its
// link (issue 29: a guest's, with the order's token). The order it watches after a payment, and the
// order page's order, is lib/orders.ts' orderQuery.

/** An order reached by its link: its id, and the token a guest's link carries (a signed-in owner needs none). */
export interface OrderLink {
  orderId: string;
  token?: string;
}

/** The signed-in customer's claims, newest first: only the library reads them. */
const claimsKey = ['claims'] as const;

/** The signed-in customer's delivered keys (GET /api/purchases): fetched afresh each time the library opens. */
export function purchasesQuery() {
  return queryOptions({ queryKey: queryKeys.purchases, queryFn: () => apiGet<Purchase[]>('/api/purchases'), staleTime: 0, retry: false });
}

/**
 * One key of an order (GET /api/orders/{id}/keys?token=…&keyId=…): the order page reveals its keys one
 * by one, so a key nobody revealed can still go back to its seller.
 */
async function orderKey({ orderId, token }: OrderLink, purchaseId: string): Promise<PurchaseKey> {
  const query = new URLSearchParams(token ? { token, keyId: purchaseId } : { keyId: purchaseId });
  const { keys } = await apiGet<OrderKeys>(`/api/orders/${encodeURIComponent(orderId)}/keys?${query.toString()}`);
  const found = keys.find((key) => key.purchaseId === purchaseId);
  if (!found) throw new Error(`The answer holds no key ${purchaseId}`);
  return { key: found.key };
}

/**
 * 'Reveal Key' (GET /api/purchases/{id}/key, or the order's keys for an order reached by its link),
 * asked for only when the buyer wants the key: a mutation rather than a query, so the key stays with
 * the card that showed it and leaves no copy in the query cache.
 */
export function useRevealKey(link?: OrderLink) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (purchaseId: string) => (link ? orderKey(link, purchaseId) : apiGet<PurchaseKey>(`/api/purchases/${encodeURIComponent(purchaseId)}/key`)),
    gcTime: 0,
    // The purchase is revealed now (the server recorded it): its card may offer to report a problem.
    onSuccess: (_key, purchaseId) => {
      queryClient.setQueryData<Purchase[]>(queryKeys.purchases, (purchases) => purchases?.map((purchase) => (purchase._id === purchaseId ? { ...purchase, revealed: true } : purchase)));
      if (link) {
        queryClient.setQueryData<Order>(queryKeys.order(link.orderId), (order) =>
          order && { ...order, keys: order.keys?.map((key) => (key.purchaseId === purchaseId ? { ...key, revealed: true } : key)) },
        );
      }
    },
  });
}

/** The customer's claims on their keys (GET /api/claims), newest first, each with its state. */
export function claimsQuery() {
  return queryOptions({ queryKey: claimsKey, queryFn: () => apiGet<Claim[]>('/api/claims'), staleTime: 0, retry: false });
}

/**
 * The claims on an order's keys, for its page: by the order's link when the page has one (GET
 * /api/orders/{id}/claims?token=, so a guest sees them after a reload too), else the signed-in
 * customer's own list. Under the claims' key either way, so a new report reaches it.
 */
export function orderClaimsQuery({ orderId, token }: OrderLink) {
  return queryOptions({
    queryKey: token ? [...claimsKey, 'order', orderId] : claimsKey,
    queryFn: () => apiGet<Claim[]>(token ? withOrderToken(`/api/orders/${encodeURIComponent(orderId)}/claims`, token) : '/api/claims'),
    staleTime: 0,
    retry: false,
  });
}

/**
 * Reports a problem with a key (POST /api/purchases/{id}/claim, with the order's or the gift's token
 * for a guest or a gift's recipient). The new claim goes to the front of every list of claims on
 * screen at once (the customer's, an order's, a gift's), so its card shows the claim's state as the
 * form closes; those lists are then read again.
 */
export function useReportProblem(purchaseId: string, token?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ClaimRequest) =>
      apiSend<{ claim: Claim }, ClaimRequest>('POST', withOrderToken(`/api/purchases/${encodeURIComponent(purchaseId)}/claim`, token), request),
    onSuccess: ({ claim }) => {
      queryClient.setQueriesData<Claim[]>({ queryKey: claimsKey }, (claims) => claims && [claim, ...claims]);
      void queryClient.invalidateQueries({ queryKey: claimsKey });
    },
  });
}
