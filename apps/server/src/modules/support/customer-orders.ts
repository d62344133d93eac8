// A signed-in customer's recent orders as one line each: what the AI provider's prompt holds and
// what the offline assistant answers to "where is my order?".
import type { Order } from '@keystore/contract';

/** How many of the newest orders support looks at: the ones a customer asks about. */
export const RECENT_ORDERS = 5;

/** What support needs of the orders module. */
export interface OrdersReader {
  list(userId: string): Promise<Order[]>;
}

/** "Order 1A2B3C4D of 20 Nov 2026: Title × 2, €12.00. Payment: Paid. Delivery: Delivered." */
export function orderLine(order: Order): string {
  const date = new Date(order.createdAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  const delivery = order.deliveryStatus === 'Delivered' ? 'Delivered (the keys are in the Library)' : order.deliveryStatus;
  return `Order ${order._id.slice(0, 8).toUpperCase()} of ${date}: ${order.items}, €${order.amount.toFixed(2)}. Payment: ${order.status}. Delivery: ${delivery}.`;
}
