// What support knows about the store, written once: the AI provider gets it in its system prompt,
// the offline assistant retrieves answers from it. The facts are those of the terms (SPEC §1), the
// same the legal pages state.
import { ORDER_TTL_MINUTES, REFUND_WINDOW_DAYS, SUPPORT_HOURS, SUPPORT_MESSAGE_MAX_LENGTH } from '@keystore/contract';

/** Where the offline assistant and the AI send a customer it cannot help. */
export const EMAIL_FORM_HINT = 'write to us with the e-mail form on this Support page';

/** The terms in short, as the AI provider's system prompt states them. */
export const STORE_TERMS: readonly string[] = [
  'Keystore sells digital activation keys for games (mostly PC, also Xbox, PlayStation and Nintendo), DLC and gift cards.',
  'Product data (titles, prices, stock, regions) comes from an external key supplier API and is refreshed every 4 hours.',
  "Prices are the supplier's price plus a small markup. All purchases are one-time payments in euros (EUR); there are no subscriptions.",
  'Accepted payment methods: Visa and Mastercard cards.',
  `An unpaid order holds its keys for ${ORDER_TTL_MINUTES} minutes, then lapses and nothing is charged.`,
  'Delivery: keys usually arrive within minutes of payment, and delivery takes at most 1 business day. Keys are e-mailed with the receipt and appear in the Library.',
  `Refunds: a refund is possible within ${REFUND_WINDOW_DAYS} days of the purchase when a key was not delivered; it is processed within 7 business days to the card that paid. A key that was revealed and redeemed cannot be refunded because the buyer changed their mind; a faulty key is replaced or refunded.`,
  `Support hours are ${SUPPORT_HOURS}. Support answers e-mails within 24 hours, and most issues are resolved within 5 business days.`,
  'The service is for adults 18+ only.',
  'Each product page names the platform and the region where the key can be activated; a key for one region may not work in another, while Global keys work everywhere.',
];

export interface FaqEntry {
  id: string;
  question: string;
  answer: string;
  /** Words and short phrases that point at this entry, synonyms included; matched after stemming. */
  keywords: readonly string[];
}

export const FAQ: readonly FaqEntry[] = [
  {
    id: 'refund',
    question: 'How do refunds work and how long does a refund take?',
    answer: `If your key was not delivered, you can ask for a refund within ${REFUND_WINDOW_DAYS} days of the purchase: ${EMAIL_FORM_HINT} with your order number. Once the non-delivery is confirmed, the refund is processed within 7 business days to the card you paid with.`,
    keywords: ['refund', 'money back', 'reimburse', 'chargeback', 'return', 'cancel', 'repay', 'compensation'],
  },
  {
    id: 'delivery',
    question: 'How long does delivery take?',
    answer: 'Keys are usually delivered within minutes of payment: they appear in your Library and arrive by e-mail with the receipt. Delivery takes at most 1 business day; if it takes longer you can ask for a refund.',
    keywords: ['deliver', 'delivery', 'arrive', 'receive', 'received', 'wait', 'waiting', 'instant', 'when will', 'not yet', 'how fast', 'how soon', 'quick'],
  },
  {
    id: 'hours',
    question: 'What are your support hours?',
    answer: `Our support hours are ${SUPPORT_HOURS}. We answer e-mails within 24 hours, and most issues are resolved within 5 business days.`,
    keywords: ['hour', 'open', 'opening', 'available', 'availability', 'working time', 'business hours', 'time zone', 'timezone', 'online', 'contact', 'reach', 'response time', 'reply'],
  },
  {
    id: 'payment',
    question: 'Which payment methods do you accept?',
    answer: 'We accept Visa and Mastercard cards. Every purchase is a one-time payment in euros (EUR); there are no subscriptions.',
    keywords: ['pay', 'payment', 'card', 'visa', 'mastercard', 'credit', 'debit', 'paypal', 'method', 'accept', 'crypto', 'bitcoin', 'apple pay', 'google pay', 'bank'],
  },
  {
    id: 'region',
    question: 'Is the game region locked?',
    answer: 'Some keys are region locked. Each product page shows the region where the key can be activated (under Region): a key for one region may not work in another, while Global keys work everywhere. Check it before you buy.',
    keywords: ['region', 'regional', 'lock', 'locked', 'country', 'countries', 'global', 'europe', 'european', 'asia', 'usa', 'america', 'abroad', 'vpn', 'restrict', 'restriction', 'worldwide'],
  },
  {
    id: 'age',
    question: 'Is there an age limit?',
    answer: 'Keystore is for adults 18+ only. Each game also shows its PEGI rating on its page.',
    keywords: ['age', 'old', 'adult', 'minor', 'child', 'kid', 'teen', 'under 18', '18', 'pegi', 'young'],
  },
  {
    id: 'reveal',
    question: 'How do I see my key?',
    answer: 'Log in and open your Library: each purchased game has a Reveal Key button that shows the product key. The keys are also in the receipt e-mail we send after payment.',
    keywords: ['reveal', 'see', 'view', 'find', 'show', 'library', 'get my key', 'my key', 'code', 'serial'],
  },
  {
    id: 'activate',
    question: 'How do I activate a key?',
    answer: "Copy the key from your Library and redeem it in the platform it is for (for example Steam: Games > Activate a Product on Steam; Xbox, PlayStation and Nintendo have a 'Redeem code' option in their stores). The platform is named on the product page.",
    keywords: ['activate', 'activation', 'redeem', 'steam', 'xbox', 'playstation', 'psn', 'nintendo', 'origin', 'gog', 'install'],
  },
  {
    id: 'key-problem',
    question: 'My key does not work. What can I do?',
    answer: `Tell us which key it is and the error message the platform showed: ${EMAIL_FORM_HINT}. We replace a faulty key or, if we cannot, refund it.`,
    keywords: ['not work', 'doesn t work', 'does not work', 'invalid', 'broken', 'error', 'already used', 'already redeemed', 'wrong', 'faulty', 'problem', 'issue'],
  },
  {
    id: 'order-status',
    question: 'Where is my order? What is its status?',
    answer: 'Log in and open your Profile: the order history shows every order with its payment status (Paid, Awaiting payment, Declined) and whether it was delivered. An unpaid order lapses after 30 minutes and nothing is charged.',
    keywords: ['order', 'status', 'track', 'purchase', 'bought', 'history', 'my order', 'awaiting', 'declined', 'paid'],
  },
  {
    id: 'price',
    question: 'How are prices set? Which currency?',
    answer: "Prices are our key supplier's price plus a small markup, and all purchases are in euros. Prices and stock are refreshed from the supplier every 4 hours.",
    keywords: ['price', 'cost', 'expensive', 'cheap', 'markup', 'currency', 'euro', 'eur', 'dollar', 'discount', 'sale', 'stock'],
  },
  {
    id: 'account',
    question: 'How do I create an account or reset my password?',
    answer: "Use Sign Up to create an account: we e-mail a 6-digit code to confirm your address. Forgot your password? Use 'Forgot password' in the login window and we e-mail you a link to choose a new one. A login from a new device asks for a code we e-mail you.",
    keywords: ['account', 'sign up', 'signup', 'register', 'password', 'login', 'log in', 'sign in', 'forgot', 'reset', 'verify', 'verification', 'new device'],
  },
  {
    id: 'human',
    question: 'How can I contact a person?',
    answer: `To reach our team, ${EMAIL_FORM_HINT} (messages up to ${SUPPORT_MESSAGE_MAX_LENGTH} characters). We answer within 24 hours, during support hours ${SUPPORT_HOURS}.`,
    keywords: ['human', 'person', 'agent', 'operator', 'email', 'e mail', 'write', 'talk', 'speak', 'staff', 'complaint'],
  },
];
