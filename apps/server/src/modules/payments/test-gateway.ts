// The built-in test gateway (DESIGN §4), the default provider: the store's own card form at
// /pay/{orderId}, which decides by card number like a card network's test mode. No money moves.
import { orderMessages, RISK_TEST_CARDS, TEST_CARDS } from '@keystore/contract';
import { createHash } from 'node:crypto';
import type { CardScreening } from '../risk/ports.ts';
import type { PaymentProvider } from './provider.ts';

export type CardVerdict = { paid: true; card: CardScreening } | { paid: false; reason: string };

/**
 * What the gateway answers for a card (digits only, already Luhn-checked by the request schema), and,
 * for one that pays, what it tells the risk desk as Stripe's charge would: a fingerprint (the same card
 * gives the same one) and the risk level of the test cards named for it.
 */
export function cardVerdict(cardNumber: string): CardVerdict {
  const fingerprint = createHash('sha256').update(`test-gateway:${cardNumber}`).digest('base64url').slice(0, 16);
  const card = (providerRisk: CardScreening['providerRisk']) => ({ paid: true as const, card: { fingerprint, providerRisk, threeDSecure: false } });
  if (cardNumber === TEST_CARDS.pays) return card('normal');
  if (cardNumber === RISK_TEST_CARDS.elevatedRisk) return card('elevated');
  if (cardNumber === RISK_TEST_CARDS.highestRisk) return card('highest');
  if (cardNumber === RISK_TEST_CARDS.disputed) return card('normal');
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
