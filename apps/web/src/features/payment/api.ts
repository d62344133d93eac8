import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Order, ReopenedCheckout, TestPaymentAnswer, TestPaymentRequest } from '@keystore/contract';
import { apiSend } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';

// The pay page's calls (issue 5). Reading the order is lib/orders.ts' orderQuery, shared with the
// library and the profile; placing one is lib/checkout.ts' usePlaceOrder.

/**
 * Pays an order with a test card (POST /api/payments/test/{id}). Repeatable: paying an order that is
 * paid already changes nothing. The verdict changes the order, the history and (once paid) the library:
 * they are marked stale, without fetching the order the page shows again under the verdict's message.
 */
export function usePayOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, card }: { orderId: string; card: TestPaymentRequest }) =>
      apiSend<TestPaymentAnswer, TestPaymentRequest>('POST', `/api/payments/test/${encodeURIComponent(orderId)}`, card, { repeatable: true }),
    onSettled: (_verdict, _error, { orderId }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.order(orderId), refetchType: 'none' });
      void queryClient.invalidateQueries({ queryKey: queryKeys.profile });
      void queryClient.invalidateQueries({ queryKey: queryKeys.purchases });
    },
  });
}

/**
 * Cancels an unpaid order (POST /api/orders/{id}/cancel): its keys go back on the shelf at once. The
 * answer is the closed order; the history is fetched again. Cancelling twice changes nothing on the
 * server, so a lost answer may be asked again.
 */
export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) => apiSend<Order>('POST', `/api/orders/${encodeURIComponent(orderId)}/cancel`, undefined, { repeatable: true }),
    onSuccess: (cancelled) => {
      queryClient.setQueryData(queryKeys.order(cancelled._id), cancelled);
      void queryClient.invalidateQueries({ queryKey: queryKeys.profile });
    },
  });
}

/** Opens the provider's checkout of an unpaid order again (POST /api/orders/{id}/checkout); nothing changes here. */
export function useReopenCheckout() {
  return useMutation({
    mutationFn: (orderId: string) => apiSend<ReopenedCheckout>('POST', `/api/orders/${encodeURIComponent(orderId)}/checkout`),
  });
}
