// The built-in test gateway (DESIGN §4), the default provider: the store's own card form at
// /pay/{orderId}, which decides by card number like a card network's test mode. No money moves.
import { orderMessages, TEST_CARDS } from '@keystore/contract';
import type { PaymentProvider } from './provider.ts';

export type CardVerdict = { paid: true } | { paid: false; reason: string };

/** What the gateway answers for a card (digits only, already Luhn-checked by the request schema). */
export function cardVerdict(cardNumber: string): CardVerdict {
  if (cardNumber === TEST_CARDS.pays) return { paid: true };
  if (cardNumber === TEST_CARDS.declined) return { paid: false, reason: orderMessages.cardDeclined };
  if (cardNumber === TEST_CARDS.insufficientFunds) return { paid: false, reason: orderMessages.insufficientFunds };
  return { paid: false, reason: orderMessages.unknownTestCard };
}

export const testGateway: PaymentProvider = {
  name: 'test',
  async openCheckout(order) {
    return { url: `/pay/${encodeURIComponent(order.id)}` };
  },
  async reopenUrl(order) {
    return `/pay/${encodeURIComponent(order.id)}`;
  },
  // Nothing was charged, so nothing goes back; the order's own state records the refund.
  async refund() {},
};
