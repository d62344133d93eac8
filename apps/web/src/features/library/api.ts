import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Claim, ClaimRequest, Gift, Order, OrderKeys, Purchase, PurchaseKey } from '@keystore/contract';
import { apiGet, apiSend } from '../../lib/api.ts';
import { withOrderToken } from '../../lib/orders.ts';
import { queryKeys } from '../../lib/query-keys.ts';

// The library's calls (SPEC §7, purchases; issue 24, claims), and the keys of one order or gift
// reached by its link (issue 29: a guest's order, with the order's token; a gift, with the token its
// recipient's mail carries). The order it watches after a payment, and the order page's order, is
// lib/orders.ts' orderQuery.

/** An order reached by its link: its id, and the token a guest's link carries (a signed-in owner needs none). */
export interface OrderLink {
  orderId: string;
  token?: string;
}

/** A gift reached by its link: its id, and the token of the recipient's mail (a gift opens only by it). */
export interface GiftLink {
  giftId: string;
  token: string;
}

/** Where keys are revealed by a link rather than by the library's session: an order's page or a gift's. */
export type KeyLink = OrderLink | GiftLink;

/** Every list of claims (the customer's, an order's, a gift's) is under this key, so a new report reaches them all. */
const claimsKey = ['claims'] as const;

/** The signed-in customer's delivered keys (GET /api/purchases): fetched afresh each time the library opens. */
export function purchasesQuery() {
  return queryOptions({ queryKey: queryKeys.purchases, queryFn: () => apiGet<Purchase[]>('/api/purchases'), staleTime: 0, retry: false });
}

/**
 * One key of an order or a gift (GET /api/orders/{id}/keys or /api/gifts/{id}/keys, ?token=…&keyId=…):
 * their pages reveal keys one by one, so a key nobody revealed can still go back to its seller.
 */
async function keyByLink(link: KeyLink, purchaseId: string): Promise<PurchaseKey> {
  const { token } = link;
  const query = new URLSearchParams(token ? { token, keyId: purchaseId } : { keyId: purchaseId });
  const path = 'giftId' in link ? `/api/gifts/${encodeURIComponent(link.giftId)}/keys` : `/api/orders/${encodeURIComponent(link.orderId)}/keys`;
  const { keys } = await apiGet<OrderKeys>(`${path}?${query.toString()}`);
  const found = keys.find((key) => key.purchaseId === purchaseId);
  if (!found) throw new Error(`The answer holds no key ${purchaseId}`);
  return { key: found.key };
}

/**
 * 'Reveal Key' (GET /api/purchases/{id}/key, or the keys of an order or a gift reached by its link),
 * asked for only when the buyer wants the key: a mutation rather than a query, so the key stays with
 * the card that showed it and leaves no copy in the query cache.
 */
export function useRevealKey(link?: KeyLink) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (purchaseId: string) => (link ? keyByLink(link, purchaseId) : apiGet<PurchaseKey>(`/api/purchases/${encodeURIComponent(purchaseId)}/key`)),
    gcTime: 0,
    // The purchase is revealed now (the server recorded it): its card may offer to report a problem.
    onSuccess: (_key, purchaseId) => {
      const revealed = <Key extends { purchaseId: string }>(key: Key) => (key.purchaseId === purchaseId ? { ...key, revealed: true } : key);
      queryClient.setQueryData<Purchase[]>(queryKeys.purchases, (purchases) => purchases?.map((purchase) => (purchase._id === purchaseId ? { ...purchase, revealed: true } : purchase)));
      if (link && 'giftId' in link) queryClient.setQueryData<Gift>(giftKey(link.giftId), (gift) => gift && { ...gift, keys: gift.keys.map(revealed) });
      else if (link) queryClient.setQueryData<Order>(queryKeys.order(link.orderId), (order) => order && { ...order, keys: order.keys?.map(revealed) });
    },
  });
}

const giftKey = (giftId: string) => ['gift', giftId] as const;

/** A call of a gift's, opened by its link: `/api/gifts/{id}{rest}?token=`. */
const giftPath = ({ giftId, token }: GiftLink, rest = '') => `/api/gifts/${encodeURIComponent(giftId)}${rest}?token=${encodeURIComponent(token)}`;

/** A gift as its recipient sees it (GET /api/gifts/{id}?token=): a link that does not open it is a 404, shown, not tried again. */
export function giftQuery(link: GiftLink) {
  return queryOptions({
    queryKey: giftKey(link.giftId),
    queryFn: () => apiGet<Gift>(giftPath(link)),
    retry: false,
    staleTime: 0,
  });
}

/** The claims on a gift's keys, for its page (GET /api/gifts/{id}/claims?token=): its recipient follows them there. */
export function giftClaimsQuery(link: GiftLink) {
  return queryOptions({
    queryKey: [...claimsKey, 'gift', link.giftId],
    queryFn: () => apiGet<Claim[]>(giftPath(link, '/claims')),
    staleTime: 0,
    retry: false,
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
