// What support knows about the store, written once: the AI provider gets it in its system prompt,
// the offline assistant retrieves answers from it. The facts are those of the terms (SPEC §1), the
// same the legal pages state; every figure comes from the contract's constants, so an answer can only
// state what the terms say.
import {
  CATALOGUE_REFRESH_HOURS,
  DELIVERY_MAX_BUSINESS_DAYS,
  MINIMUM_AGE,
  ORDER_TTL_MINUTES,
  REFUND_PROCESSING_BUSINESS_DAYS,
  REFUND_WINDOW_DAYS,
  SUPPORT_HOURS,
  SUPPORT_MESSAGE_MAX_LENGTH,
  SUPPORT_REPLY_HOURS,
  SUPPORT_RESOLUTION_BUSINESS_DAYS,
} from '@keystore/contract';

/** Where the offline assistant and the AI send a customer it cannot help. */
export const EMAIL_FORM_HINT = 'write to us with the e-mail form on this Support page';

const businessDays = (count: number) => `${count} business ${count === 1 ? 'day' : 'days'}`;
const REPLY_TIME = `within ${SUPPORT_REPLY_HOURS} hours`;
const RESOLUTION_TIME = `within ${businessDays(SUPPORT_RESOLUTION_BUSINESS_DAYS)}`;

/** The terms in short, as the AI provider's system prompt states them. */
export const STORE_TERMS: readonly string[] = [
  'Keystore sells digital activation keys for games (mostly PC, also Xbox, PlayStation and Nintendo), DLC and gift cards.',
  `Product data (titles, prices, stock, regions) comes from an external key supplier API and is refreshed every ${CATALOGUE_REFRESH_HOURS} hours.`,
  "Prices are the supplier's price plus a small markup. All purchases are one-time payments in euros (EUR); there are no subscriptions.",
  'Accepted payment methods: Visa and Mastercard cards.',
  `An unpaid order holds its keys for ${ORDER_TTL_MINUTES} minutes, then lapses and nothing is charged.`,
  `Delivery: keys usually arrive within minutes of payment, and delivery takes at most ${businessDays(DELIVERY_MAX_BUSINESS_DAYS)}. Keys are e-mailed with the receipt and appear in the Library.`,
  `Refunds: a refund is possible within ${REFUND_WINDOW_DAYS} days of the purchase when a key was not delivered; it is processed within ${businessDays(REFUND_PROCESSING_BUSINESS_DAYS)} to the card that paid. A key that was revealed and redeemed cannot be refunded because the buyer changed their mind; a faulty key is replaced or refunded.`,
  `Support hours are ${SUPPORT_HOURS}. Support answers e-mails ${REPLY_TIME}, and most issues are resolved ${RESOLUTION_TIME}.`,
  `The service is for adults ${MINIMUM_AGE}+ only.`,
  'Each product page names the platform and the region where the key can be activated; a key for one region may not work in another, while Global keys work everywhere.',
];

export interface FaqEntry {
  id: string;
  question: string;
  answer: string;
  /** Words and short phrases that name what the entry is about; matched after stemming, they weigh double. */
  topics: readonly string[];
  /** Words and phrases that point at the entry without naming it (synonyms, the ways people ask). */
  keywords: readonly string[];
}

export const FAQ: readonly FaqEntry[] = [
  {
    id: 'refund',
    question: 'How do refunds work and how long does a refund take?',
    answer: `If your key was not delivered, you can ask for a refund within ${REFUND_WINDOW_DAYS} days of the purchase: ${EMAIL_FORM_HINT} with your order number. Once the non-delivery is confirmed, the refund is processed within ${businessDays(REFUND_PROCESSING_BUSINESS_DAYS)} to the card you paid with.`,
    topics: ['refund', 'money back', 'reimburse', 'chargeback', 'repay'],
    keywords: ['return', 'cancel', 'compensation', 'not deliver', 'not arrive', 'never arrive', 'not receive', 'never receive', 'how many day', 'policy'],
  },
  {
    id: 'delivery',
    question: 'How long does delivery take?',
    answer: `Keys are usually delivered within minutes of payment: they appear in your Library and arrive by e-mail with the receipt. Delivery takes at most ${businessDays(DELIVERY_MAX_BUSINESS_DAYS)}; if your key has not arrived by then, you can ask for a refund.`,
    topics: ['deliver', 'delivery', 'arrive', 'arrival'],
    keywords: ['receive', 'wait', 'instant', 'when will', 'not yet', 'how fast', 'how soon', 'how long until', 'quick', 'show up', 'get my key', 'my code', 'after pay', 'business day'],
  },
  {
    id: 'hours',
    question: 'What are your support hours?',
    answer: `Our support hours are ${SUPPORT_HOURS}. We answer e-mails ${REPLY_TIME}, and most issues are resolved ${RESOLUTION_TIME}.`,
    topics: ['support hour', 'opening hour', 'business hour', 'open', 'opening', 'working time'],
    keywords: ['hour', 'available', 'availability', 'time zone', 'timezone', 'online', 'contact', 'reach', 'reply', 'respond', 'response', 'answer email', 'weekend', 'what time', 'closed'],
  },
  {
    id: 'payment',
    question: 'Which payment methods do you accept?',
    answer: 'We accept Visa and Mastercard cards. Every purchase is a one-time payment in euros (EUR); there are no subscriptions.',
    topics: ['payment', 'payment method', 'card', 'visa', 'mastercard', 'paypal'],
    keywords: ['pay', 'credit', 'debit', 'method', 'accept', 'crypto', 'bitcoin', 'apple pay', 'google pay', 'bank'],
  },
  {
    id: 'region',
    question: 'Is the game region locked?',
    answer: 'Some keys are region locked. Each product page shows the region where the key can be activated (under Region): a key for one region may not work in another, while Global keys work everywhere. Check it before you buy.',
    topics: ['region', 'regional', 'region lock', 'country', 'countries'],
    keywords: ['lock', 'locked', 'global', 'europe', 'european', 'asia', 'usa', 'america', 'abroad', 'vpn', 'restrict', 'restriction', 'worldwide'],
  },
  {
    id: 'age',
    question: 'Is there an age limit?',
    answer: `Keystore is for adults ${MINIMUM_AGE}+ only: you must be at least ${MINIMUM_AGE} to buy here. Each game also shows its PEGI rating on its page.`,
    topics: ['age', 'old', 'adult', 'minor', 'under 18', '18'],
    keywords: ['child', 'children', 'kid', 'teen', 'teenager', 'pegi', 'young', 'son', 'daughter', 'year old'],
  },
  {
    id: 'reveal',
    question: 'How do I see my key?',
    answer: 'Log in and open your Library: each purchased game has a Reveal Key button that shows the product key. The keys are also in the receipt e-mail we send after payment.',
    topics: ['reveal', 'product key', 'see my key', 'find my key', 'view my key', 'show my key'],
    keywords: ['see', 'view', 'find', 'show', 'library', 'where is my key', 'code', 'serial'],
  },
  {
    id: 'activate',
    question: 'How do I activate a key?',
    answer: "Copy the key from your Library and redeem it in the platform it is for (for example Steam: Games > Activate a Product on Steam; Xbox, PlayStation and Nintendo have a 'Redeem code' option in their stores). The platform is named on the product page.",
    topics: ['activate', 'activation', 'redeem'],
    keywords: ['steam', 'xbox', 'playstation', 'psn', 'nintendo', 'origin', 'gog', 'install'],
  },
  {
    id: 'key-problem',
    question: 'My key does not work. What can I do?',
    answer: `Tell us which key it is and the error message the platform showed: ${EMAIL_FORM_HINT}. We replace a faulty key or, if we cannot, refund it.`,
    topics: ['not work', 'doesn t work', 'does not work', 'invalid', 'already used', 'already redeemed', 'faulty'],
    keywords: ['broken', 'error', 'wrong', 'problem', 'issue'],
  },
  {
    id: 'order-status',
    question: 'Where is my order? What is its status?',
    answer: `Log in and open your Profile: the order history shows every order with its payment status (Paid, Awaiting payment, Declined) and whether it was delivered. An unpaid order lapses after ${ORDER_TTL_MINUTES} minutes and nothing is charged.`,
    topics: ['status', 'order status', 'order history', 'where is my order', 'track'],
    keywords: ['order', 'my order', 'purchase', 'bought', 'history', 'awaiting', 'declined', 'paid'],
  },
  {
    id: 'price',
    question: 'How are prices set? Which currency?',
    answer: `Prices are our key supplier's price plus a small markup, and all purchases are in euros. Prices and stock are refreshed from the supplier every ${CATALOGUE_REFRESH_HOURS} hours.`,
    topics: ['price', 'cost', 'currency', 'euro', 'dollar'],
    keywords: ['expensive', 'cheap', 'markup', 'eur', 'discount', 'sale', 'stock'],
  },
  {
    id: 'account',
    question: 'How do I create an account or reset my password?',
    answer: "Use Sign Up to create an account: we e-mail a 6-digit code to confirm your address. Forgot your password? Use 'Forgot password' in the login window and we e-mail you a link to choose a new one. A login from a new device asks for a code we e-mail you.",
    topics: ['account', 'sign up', 'signup', 'register', 'password', 'login', 'log in', 'sign in'],
    keywords: ['forgot', 'reset', 'verify', 'verification', 'new device'],
  },
  {
    id: 'human',
    question: 'How can I contact a person?',
    answer: `To reach our team, ${EMAIL_FORM_HINT} (messages up to ${SUPPORT_MESSAGE_MAX_LENGTH} characters). We answer ${REPLY_TIME}, during support hours ${SUPPORT_HOURS}.`,
    topics: ['human', 'person', 'agent', 'operator', 'talk', 'speak'],
    keywords: ['email', 'e mail', 'write', 'staff', 'complaint'],
  },
];
