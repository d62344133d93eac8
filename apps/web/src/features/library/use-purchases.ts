import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Order } from '@keystore/contract';
import { removeGameFromCart } from '../../lib/cart.ts';
import { orderQuery } from '../../lib/orders.ts';
import { purchasesQuery } from './api.ts';

/** How often a just-paid order is asked about while its keys are on their way. */
export const DELIVERY_POLL_MS = 1500;

/** The signed-in customer's delivered keys, newest first as the server sends them. */
export function usePurchases() {
  return useQuery(purchasesQuery());
}

/**
 * After a payment the library opens with ?order=<id>. The keys are allocated just after the payment,
 * so the order is polled until it is Delivered (or ends otherwise), then the purchases are fetched
 * again. A paid order's games leave the cart. Answers whether the keys are still on their way.
 */
export function useDeliveryWatch(orderId: string | null, refetchPurchases: () => unknown): string | null {
  const { data: order } = useQuery({
    ...orderQuery(orderId ?? ''),
    enabled: orderId !== null,
    // An order in review is watched too: its keys come the moment the owner approves it.
    refetchInterval: (query) => (query.state.data && !awaitsDelivery(query.state.data) && !query.state.data.statusNote ? false : DELIVERY_POLL_MS),
  });
  // Stripe's page sends the buyer here straight away, past the pay page that empties the cart after a
  // test-card payment. Once per order: a game put back in the cart afterwards stays there.
  const emptiedFor = useRef<string | null>(null);
  useEffect(() => {
    if (order?.status !== 'Paid' || emptiedFor.current === order._id) return;
    emptiedFor.current = order._id;
    for (const line of order.lines) removeGameFromCart(line.gameId);
  }, [order]);
  const delivered = order?.deliveryStatus === 'Delivered';
  useEffect(() => {
    if (delivered) void refetchPurchases();
  }, [delivered, refetchPurchases]);
  if (order?.statusNote) return order.statusNote;
  return orderId !== null && (!order || awaitsDelivery(order)) ? 'Your keys are being delivered. They will appear here in a moment.' : null;
}

/** A paid order whose keys are not all in yet. */
export function awaitsDelivery(order: Order): boolean {
  return order.status === 'Paid' && order.deliveryStatus === 'Pending';
}
