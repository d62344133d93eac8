import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useNavigate } from 'react-router';
import type { CreateOrderAnswer, CreateOrderRequest } from '@keystore/contract';
import { checkoutMessages } from '@keystore/contract/checkout-messages';
import { apiSend, isRefusal, messageOf } from './api.ts';
import { queryKeys } from './query-keys.ts';

type Items = CreateOrderRequest['items'];

/**
 * Places orders under one Idempotency-Key per checkout attempt (POST /api/orders), whatever befalls
 * the calls: a try repeated after a lost answer gets the order placed already instead of reserving its
 * keys again; other items (or another guest's e-mail) than the attempt's start a new attempt. A guest's
 * order carries `email` and goes without a session (issue 29). A refusal (4xx: out of stock, too
 * many unpaid orders) ends the attempt, since the server answered; a call that got no answer, or a
 * 5xx, keeps it, since the order may have been placed all the same. A placed order changes the
 * customer's order history, so the profile is fetched again.
 *
 * The one way the app places an order: the cart, 'Buy in 1 click', the guest form and the pay page's new
 * order after a decline. `endAttempt()` once the attempt is over (its order is being paid, or was paid or declined).
 */
export function usePlaceOrder() {
  const queryClient = useQueryClient();
  const attempt = useRef<{ key: string; request: string } | null>(null);
  const mutation = useMutation({
    mutationFn: (request: CreateOrderRequest) => {
      const asked = JSON.stringify(request);
      if (attempt.current?.request !== asked) attempt.current = { key: crypto.randomUUID(), request: asked };
      return apiSend<CreateOrderAnswer, CreateOrderRequest>('POST', '/api/orders', request, { idempotencyKey: attempt.current.key });
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.profile }),
    onError: (error) => attemptFailed(error),
  });
  /** After a failed call of the attempt (the order's or its payment's): only a refusal ends it. */
  const attemptFailed = (error: unknown) => {
    if (isRefusal(error)) attempt.current = null;
  };
  const endAttempt = () => {
    attempt.current = null;
  };
  return { ...mutation, endAttempt, attemptFailed };
}

/**
 * What the pay page is told on the way to an order (in the history entry, not the address), to place
 * it again as it was after a decline: a guest's e-mail, and the gift it is (the order's answer says neither).
 */
export interface PaymentState {
  guestEmail?: string;
  gift?: CreateOrderRequest['gift'];
}

/**
 * Checkout from the cart or 'Buy in 1 click': `checkout(items)` places the order of one attempt (a
 * gift when `gift` says for whom) and opens its payment page; `busy` meanwhile (and while the payment
 * page opens), and `problem`, what to show when it failed; `onError` sees the failure itself (the cart
 * reads a 409's new prices).
 */
export function useCheckout(): { busy: boolean; problem: string | null; checkout(items: Items, onError?: (error: unknown) => void, gift?: CreateOrderRequest['gift']): void } {
  const navigate = useNavigate();
  const placeOrder = usePlaceOrder();
  const checkout = (items: Items, onError?: (error: unknown) => void, gift?: CreateOrderRequest['gift']) => {
    placeOrder.mutate({ items, gift }, {
      onSuccess: ({ paymentUrl }) => {
        placeOrder.endAttempt();
        openPaymentPage(paymentUrl, (path) => navigate(path, { state: { gift } satisfies PaymentState }));
      },
      onError,
    });
  };
  return {
    // Still busy once placed: the page stays until the payment page opens (a full navigation for Stripe).
    busy: placeOrder.isPending || placeOrder.isSuccess,
    problem: placeOrder.error ? messageOf(placeOrder.error, checkoutMessages.orderPlaceFailed) : null,
    checkout,
  };
}

/**
 * Opens a payment page: the test gateway's `/pay/<id>` inside the app (no reload, the cart stays in
 * memory), an external provider's absolute URL (Stripe Checkout) by a full navigation.
 */
export function openPaymentPage(paymentUrl: string, navigate: (path: string) => unknown): void {
  if (/^https?:\/\//i.test(paymentUrl)) window.location.assign(paymentUrl);
  else void navigate(paymentUrl);
}
