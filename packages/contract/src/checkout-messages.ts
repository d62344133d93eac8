// The checkout's fallback text, apart from the other order texts: the checkout sits in every page's
// first chunk, which carries every text of a file it imports (`@keystore/contract/checkout-messages`,
// decision 027). order-ui-messages.ts lists it with the rest.

/** What the checkout shows when an order could not be placed and the server gave no message. */
export const checkoutMessages = {
  orderPlaceFailed: 'The order could not be placed. Please try again.',
} as const;
