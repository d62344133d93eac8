import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  ApiKey,
  ApiKeyRequest,
  IdentityConfirmation,
  Claim,
  KeyUploadAnswer,
  Offer,
  OfferPatch,
  OfferRequest,
  Payout,
  PricePreview,
  QuickSearchHit,
  Reservation,
  Seller,
  SellerApplication,
  SellerKey,
  SellerLedgerEntry,
  SellerSale,
  SellerWebhook,
  SellerWebhookPing,
  WebhookRequest,
} from '@keystore/contract';
import { apiGet, apiSend } from '../../lib/api.ts';

// The seller area's calls (issue 23, /api/sellers and /api/seller/*), with the signed-in customer's
// session: queries keyed under 'seller', and mutations that invalidate what they change.

const SELLER = ['seller'] as const;
const keys = {
  account: [...SELLER, 'account'] as const,
  offers: [...SELLER, 'offers'] as const,
  keys: (offerId: string) => [...SELLER, 'keys', offerId] as const,
  sales: [...SELLER, 'sales'] as const,
  ledger: [...SELLER, 'ledger'] as const,
  payouts: [...SELLER, 'payouts'] as const,
  apiKeys: [...SELLER, 'api-keys'] as const,
  webhook: [...SELLER, 'webhook'] as const,
  reservations: [...SELLER, 'reservations'] as const,
  claims: [...SELLER, 'claims'] as const,
};

/** A page of sales, ledger entries or reservations, as the API answers it (the contract names only the schema). */
export interface SellerPage<Item> {
  items: Item[];
  total: number;
  page: number;
  pageSize: number;
}

const id = (value: string) => encodeURIComponent(value);

/** The signed-in user's seller account (404 when there is none yet: the area shows the application form). */
export const sellerQuery = () => queryOptions({ queryKey: keys.account, queryFn: () => apiGet<Seller>('/api/seller'), retry: false });

export const offersQuery = () => queryOptions({ queryKey: keys.offers, queryFn: () => apiGet<Offer[]>('/api/seller/offers') });

export function offerKeysQuery(offerId: string) {
  return queryOptions({ queryKey: keys.keys(offerId), queryFn: () => apiGet<SellerKey[]>(`/api/seller/offers/${id(offerId)}/keys`) });
}

/** What a buyer would pay for a net price (euro), by the seller's commission. */
export function pricePreviewQuery(netPrice: number) {
  return queryOptions({
    queryKey: [...SELLER, 'price-preview', netPrice],
    queryFn: ({ signal }) => apiGet<PricePreview>(`/api/seller/price-preview?netPrice=${netPrice}`, { signal }),
    staleTime: 60_000,
    retry: false,
  });
}

/** Games to offer, by the catalogue's search (GET /api/games/quick-search). */
export function gameSearchQuery(text: string) {
  return queryOptions({
    queryKey: ['quick-search', text],
    queryFn: ({ signal }) => apiGet<QuickSearchHit[]>(`/api/games/quick-search?query=${encodeURIComponent(text)}`, { signal }),
    staleTime: 60_000,
  });
}

export function salesQuery(page: number) {
  return queryOptions({
    queryKey: [...keys.sales, page],
    queryFn: () => apiGet<SellerPage<SellerSale>>(`/api/seller/sales?page=${page}`),
    placeholderData: keepPreviousData,
  });
}

export function ledgerQuery(page: number) {
  return queryOptions({
    queryKey: [...keys.ledger, page],
    queryFn: () => apiGet<SellerPage<SellerLedgerEntry>>(`/api/seller/ledger?page=${page}`),
    placeholderData: keepPreviousData,
  });
}

export const payoutsQuery = () => queryOptions({ queryKey: keys.payouts, queryFn: () => apiGet<Payout[]>('/api/seller/payouts') });

export const apiKeysQuery = () => queryOptions({ queryKey: keys.apiKeys, queryFn: () => apiGet<ApiKey[]>('/api/seller/api-keys') });

export function useApply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (application: SellerApplication) => apiSend<{ seller: Seller }, SellerApplication>('POST', '/api/sellers', application),
    onSuccess: ({ seller }) => queryClient.setQueryData(keys.account, seller),
  });
}

/** Offers, and the account's counts of offers and keys, change together. */
function useInvalidateOffers() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: keys.offers }), queryClient.invalidateQueries({ queryKey: keys.account })]);
}

export function useCreateOffer() {
  const invalidate = useInvalidateOffers();
  return useMutation({
    mutationFn: (offer: OfferRequest) => apiSend<{ offer: Offer }, OfferRequest>('POST', '/api/seller/offers', offer),
    onSuccess: invalidate,
  });
}

export function useUpdateOffer() {
  const invalidate = useInvalidateOffers();
  return useMutation({
    mutationFn: ({ offerId, patch }: { offerId: string; patch: OfferPatch }) =>
      apiSend<{ offer: Offer }, OfferPatch>('PATCH', `/api/seller/offers/${id(offerId)}`, patch),
    onSuccess: invalidate,
  });
}

export function useUploadKeys(offerId: string) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateOffers();
  return useMutation({
    mutationFn: (serials: string[]) => apiSend<KeyUploadAnswer, { keys: string[] }>('POST', `/api/seller/offers/${id(offerId)}/keys`, { keys: serials }),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: keys.keys(offerId) }), invalidate()]),
  });
}

export function useDeleteKey(offerId: string) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateOffers();
  return useMutation({
    mutationFn: (keyId: string) => apiSend<unknown>('DELETE', `/api/seller/offers/${id(offerId)}/keys/${id(keyId)}`),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: keys.keys(offerId) }), invalidate()]),
  });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ApiKeyRequest) => apiSend<{ _id: string; name: string; key: string }, ApiKeyRequest>('POST', '/api/seller/api-keys', request),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.apiKeys }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => apiSend<unknown>('DELETE', `/api/seller/api-keys/${id(keyId)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.apiKeys }),
  });
}

// --- Declared stock and claims (issue 24) --------------------------------------------------------

/** The seller's webhook (never its secret), or null before one is registered. */
export const webhookQuery = () => queryOptions({ queryKey: keys.webhook, queryFn: () => apiGet<SellerWebhook | null>('/api/seller/webhook') });

/** Registers or changes the webhook; the answer carries the signing secret on the first registration only. */
export function useSetWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: WebhookRequest) => apiSend<SellerWebhook, WebhookRequest>('PUT', '/api/seller/webhook', request),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.webhook }),
  });
}

/** A new signing secret, answered this once. */
export function useRotateWebhookSecret() {
  return useMutation({ mutationFn: (identity: IdentityConfirmation) => apiSend<{ secret: string }, IdentityConfirmation>('POST', '/api/seller/webhook/rotate-secret', identity) });
}

/** A signed ping to the webhook, and what came back. */
export function usePingWebhook() {
  return useMutation({ mutationFn: () => apiSend<SellerWebhookPing>('POST', '/api/seller/webhook/test') });
}

export function reservationsQuery(page: number) {
  return queryOptions({
    queryKey: [...keys.reservations, page],
    queryFn: () => apiGet<SellerPage<Reservation>>(`/api/seller/reservations?page=${page}`),
    placeholderData: keepPreviousData,
  });
}

/** Claims on the seller's keys, newest first (the key masked, never the buyer). */
export const sellerClaimsQuery = () => queryOptions({ queryKey: keys.claims, queryFn: () => apiGet<Claim[]>('/api/seller/claims') });

/** A replacement takes a key from the offer, so the offers, the account's counts and score change with the claims. */
export function useReplaceClaim() {
  const queryClient = useQueryClient();
  const invalidateOffers = useInvalidateOffers();
  return useMutation({
    mutationFn: (claimId: string) => apiSend<{ claim: Claim }>('POST', `/api/seller/claims/${id(claimId)}/replace`),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: keys.claims }), invalidateOffers()]),
  });
}

/** Rejects a claim with the seller's reason: Keystore decides it then. */
export function useRejectClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ claimId, message }: { claimId: string; message: string }) =>
      apiSend<{ claim: Claim }, { message: string }>('POST', `/api/seller/claims/${id(claimId)}/reject`, { message }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.claims }),
  });
}
