import { useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { CreateOrderAnswer, CreateOrderRequest } from '@keystore/contract';
import { orderUiMessages } from '@keystore/contract/messages';
import { apiSend, isRefusal, messageOf } from './api.ts';

type Items = CreateOrderRequest['items'];

/** One checkout attempt: places its order under one Idempotency-Key, whatever befalls the calls. */
export interface CheckoutAttempt {
  /**
   * Places an order of `items` and answers it with where to pay; throws the ApiError of a refusal
   * (409 out of stock, too many unpaid orders). Sent with the attempt's key, so a try repeated after a
   * lost answer gets the order placed already instead of reserving its keys again; other items than
   * the attempt's start a new attempt.
   */
  placeOrder(items: Items): Promise<CreateOrderAnswer>;
  /** The attempt is over (its order is being paid, or was paid or declined): the next order is a new attempt. */
  end(): void;
  /**
   * After a failed call of the attempt: a refusal (4xx) ends it, since the server answered; a call that
   * got no answer, or a 5xx, keeps it, since the order may have been placed all the same.
   */
  failed(error: unknown): void;
}

/** The checkout attempt of a component (the cart, 'Buy in 1 click', the pay page's new order after a decline). */
export function useCheckoutAttempt(): CheckoutAttempt {
  const current = useRef<{ key: string; items: string } | null>(null);
  return useMemo(
    () => ({
      placeOrder(items) {
        const asked = JSON.stringify(items);
        if (current.current?.items !== asked) current.current = { key: crypto.randomUUID(), items: asked };
        return apiSend<CreateOrderAnswer>('POST', '/api/orders', { items }, { idempotencyKey: current.current.key });
      },
      end() {
        current.current = null;
      },
      failed(error) {
        if (isRefusal(error)) current.current = null;
      },
    }),
    [],
  );
}

/**
 * Checkout from the cart or 'Buy in 1 click': `checkout(items)` places the order of one attempt and
 * opens its payment page; `busy` meanwhile, and `problem`, what to show when it failed.
 */
export function useCheckout(): { busy: boolean; problem: string | null; checkout(items: Items): void } {
  const navigate = useNavigate();
  const attempt = useCheckoutAttempt();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const checkout = (items: Items) => {
    setBusy(true);
    setProblem(null);
    attempt
      .placeOrder(items)
      .then(({ paymentUrl }) => {
        attempt.end();
        openPaymentPage(paymentUrl, navigate);
      })
      .catch((error: unknown) => {
        attempt.failed(error);
        setProblem(messageOf(error, orderUiMessages.orderPlaceFailed));
        setBusy(false);
      });
  };
  return { busy, problem, checkout };
}

/**
 * Opens a payment page: the test gateway's `/pay/<id>` inside the app (no reload, the cart stays in
 * memory), an external provider's absolute URL (Stripe Checkout) by a full navigation.
 */
export function openPaymentPage(paymentUrl: string, navigate: (path: string) => unknown): void {
  if (/^https?:\/\//i.test(paymentUrl)) window.location.assign(paymentUrl);
  else void navigate(paymentUrl);
}
