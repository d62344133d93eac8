// The web app's fallback texts for orders, apart from messages.ts: the checkout, in every page's
// first chunk, shows one, and a chunk that imports a file carries all of it
// (`@keystore/contract/order-ui-messages`, decision 027).

/** Fallback texts the checkout, pay page and library show when the server gives no message. */
export const orderUiMessages = {
  orderPlaceFailed: 'The order could not be placed. Please try again.',
  orderLoadFailed: 'The order could not be loaded. Please try again.',
  paymentNoAnswer: 'No answer from the payment service. Please try again.',
  checkoutReopenFailed: 'The payment page could not be opened. Please try again.',
  cancelFailed: 'The order could not be cancelled. Please try again.',
  keyLoadFailed: 'The key could not be loaded. Please try again.',
} as const;
