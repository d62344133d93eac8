// The web app's fallback texts for orders, apart from messages.ts: the pages that show them load them
// with their own chunk (`@keystore/contract/order-ui-messages`, decision 027). The checkout's, which
// every page's first chunk carries, is a file of its own (checkout-messages.ts).
import { checkoutMessages } from './checkout-messages.ts';

/** Fallback texts the checkout, pay page and library show when the server gives no message. */
export const orderUiMessages = {
  ...checkoutMessages,
  orderLoadFailed: 'The order could not be loaded. Please try again.',
  paymentNoAnswer: 'No answer from the payment service. Please try again.',
  checkoutReopenFailed: 'The payment page could not be opened. Please try again.',
  cancelFailed: 'The order could not be cancelled. Please try again.',
  keyLoadFailed: 'The key could not be loaded. Please try again.',
} as const;
