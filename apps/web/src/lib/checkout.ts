import type { CreateOrderAnswer, CreateOrderRequest } from '@keystore/contract';
import { apiSend } from './api.ts';

/**
 * Places an order and answers where to pay for it. Shared by the cart and the game page's
 * 'Buy in 1 click'; throws the ApiError of a refusal (409 out of stock, too many unpaid orders).
 */
export async function placeOrder(items: CreateOrderRequest['items']): Promise<string> {
  const { paymentUrl } = await apiSend<CreateOrderAnswer>('POST', '/api/orders', { items });
  return paymentUrl;
}

/**
 * Opens a payment page: the test gateway's `/pay/<id>` inside the app (no reload, the cart stays in
 * memory), an external provider's absolute URL (Stripe Checkout) by a full navigation.
 */
export function openPaymentPage(paymentUrl: string, navigate: (path: string) => unknown): void {
  if (/^https?:\/\//i.test(paymentUrl)) window.location.assign(paymentUrl);
  else void navigate(paymentUrl);
}
