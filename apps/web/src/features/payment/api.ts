import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Order, ReopenedCheckout, TestPaymentAnswer, TestPaymentRequest } from '@keystore/contract';
import { apiSend } from '../../lib/api.ts';
import { withOrderToken } from '../../lib/orders.ts';
import { queryKeys } from '../../lib/query-keys.ts';

// The pay page's calls (issue 5). Reading the order is lib/orders.ts' orderQuery, shared with the
// library and the profile; placing one is lib/checkout.ts' usePlaceOrder. A guest's order (issue 29)
// is paid, cancelled and reopened with its token (`?token=`) instead of a session.

/**
 * Pays an order with a test card (POST /api/payments/test/{id}). Repeatable: paying an order that is
 * paid already changes nothing. The verdict changes the order, the history and (once paid) the library:
 * they are marked stale, without fetching the order the page shows again under the verdict's message.
 */
export function usePayOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, token, card }: { orderId: string; token?: string; card: TestPaymentRequest }) =>
      apiSend<TestPaymentAnswer, TestPaymentRequest>('POST', withOrderToken(`/api/payments/test/${encodeURIComponent(orderId)}`, token), card, {
        repeatable: true,
      }),
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
export function useCancelOrder(token?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) =>
      apiSend<Order>('POST', withOrderToken(`/api/orders/${encodeURIComponent(orderId)}/cancel`, token), undefined, { repeatable: true }),
    onSuccess: (cancelled) => {
      queryClient.setQueryData(queryKeys.order(cancelled._id), cancelled);
      void queryClient.invalidateQueries({ queryKey: queryKeys.profile });
    },
  });
}

/** Opens the provider's checkout of an unpaid order again (POST /api/orders/{id}/checkout); nothing changes here. */
export function useReopenCheckout(token?: string) {
  return useMutation({
    mutationFn: (orderId: string) => apiSend<ReopenedCheckout>('POST', withOrderToken(`/api/orders/${encodeURIComponent(orderId)}/checkout`, token)),
  });
}
