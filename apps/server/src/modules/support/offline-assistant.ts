// The support chat without an AI provider (DESIGN §5): answers by retrieval from the FAQ of
// knowledge.ts. A question is stemmed into words and scored against each entry's topics and keywords
// (a topic, what the entry is about, weighs double; phrases weigh more than single words; a keyword
// that many entries share weighs less); the best entry answers, a close second is added, and nothing
// matching means saying so and pointing to the form.
import { SUPPORT_REPLY_HOURS, type Order } from '@keystore/contract';
import { orderLine, RECENT_ORDERS } from './customer-orders.ts';
import { EMAIL_FORM_HINT, FAQ, type FaqEntry } from './knowledge.ts';

/** What the assistant says when no entry matches: plainly that it does not know, and where to ask. */
export const UNKNOWN_ANSWER = `Sorry, I don't know the answer to that. For anything I can't help with, please ${EMAIL_FORM_HINT}: our team answers within ${SUPPORT_REPLY_HOURS} hours.`;

const GREETING_ANSWER =
  'Hello! I can help with refunds, delivery, payment methods, region locks, revealing and activating keys, your orders and our support hours. What would you like to know?';
const THANKS_ANSWER = "You're welcome! Is there anything else I can help you with?";

/** A score under this is chance, not an answer. */
const MIN_SCORE = 0.5;
/** A second entry is worth adding when it scores at least this share of the best. */
const SECOND_SHARE = 0.75;

/** Lowercase words with common English endings removed, so "refunds", "locked", "delivered" meet their keywords. */
function stems(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter(Boolean)
    .map(stem);
}

function stem(word: string): string {
  let result = word;
  if (result.length > 5 && result.endsWith('ing')) result = result.slice(0, -3);
  else if (result.length > 6 && result.endsWith('ion')) result = result.slice(0, -3);
  else if (result.length > 4 && result.endsWith('ed')) result = result.slice(0, -2);
  else if (result.length > 3 && result.endsWith('s') && !result.endsWith('ss')) result = result.slice(0, -1);
  if (result.length > 4 && result.endsWith('e')) result = result.slice(0, -1);
  return result;
}

interface IndexedEntry {
  entry: FaqEntry;
  keywords: Array<{ phrase: string; weight: number }>;
}

/** The FAQ with stemmed topics and keywords and their weights, computed once. */
const INDEX: IndexedEntry[] = (() => {
  const phrasesOf = (words: readonly string[]) => [...new Set(words.map((word) => stems(word).join(' ')))];
  const stemmed = FAQ.map((entry) => ({ entry, topics: phrasesOf(entry.topics), keywords: phrasesOf(entry.keywords) }));
  const entriesWith = new Map<string, number>();
  for (const { topics, keywords } of stemmed) for (const phrase of new Set([...topics, ...keywords])) entriesWith.set(phrase, (entriesWith.get(phrase) ?? 0) + 1);
  // A phrase says more than a word, and a topic (what the entry is about) more than a hint; a keyword
  // shared by several entries says less (inverse document frequency).
  const weigh = (phrase: string, topic: boolean) => ({
    phrase,
    weight: (topic ? 2 : 1) * (phrase.includes(' ') ? 1.5 : 1) * (1 + Math.log(FAQ.length / entriesWith.get(phrase)!)) / (1 + Math.log(FAQ.length)),
  });
  return stemmed.map(({ entry, topics, keywords }) => ({
    entry,
    keywords: [...topics.map((phrase) => weigh(phrase, true)), ...keywords.filter((phrase) => !topics.includes(phrase)).map((phrase) => weigh(phrase, false))],
  }));
})();

/** The FAQ entries that match the question, best first, with their scores. */
export function rankEntries(question: string): Array<{ entry: FaqEntry; score: number }> {
  const text = ` ${stems(question).join(' ')} `;
  return INDEX.map(({ entry, keywords }) => ({
    entry,
    score: keywords.reduce((sum, keyword) => (text.includes(` ${keyword.phrase} `) ? sum + keyword.weight : sum), 0),
  }))
    .filter((ranked) => ranked.score >= MIN_SCORE)
    .sort((a, b) => b.score - a.score);
}

const GREETINGS = new Set(['hi', 'hello', 'hey', 'hiya', 'morning', 'evening', 'yo']);
const THANKS = new Set(['thank', 'thanks', 'thx', 'cheer', 'great', 'ok', 'okay', 'bye', 'goodbye']);

/** Answers a customer's question from the FAQ; `orders` are the signed-in customer's, newest first. */
export function offlineAnswer(question: string, orders?: readonly Order[]): string {
  const words = stems(question);
  const [best, second] = rankEntries(question);
  if (!best) {
    if (words.length > 0 && words.length <= 3 && words.some((word) => GREETINGS.has(word))) return GREETING_ANSWER;
    if (words.length > 0 && words.length <= 4 && words.some((word) => THANKS.has(word))) return THANKS_ANSWER;
    return UNKNOWN_ANSWER;
  }
  const answers = [answerOf(best.entry, orders)];
  if (second && second.score >= best.score * SECOND_SHARE) answers.push(answerOf(second.entry, orders));
  return answers.join('\n\n');
}

function answerOf(entry: FaqEntry, orders: readonly Order[] | undefined): string {
  if (entry.id !== 'order-status' || !orders) return entry.answer;
  if (orders.length === 0) return 'You have no orders yet. Once you buy a game, its order and status appear here and in your Profile.';
  const recent = orders.slice(0, RECENT_ORDERS);
  return [
    recent.length === 1 ? 'Here is your order:' : `Here are your ${recent.length} most recent orders:`,
    ...recent.map((order) => `• ${orderLine(order)}`),
    `Something wrong with one of them? Please ${EMAIL_FORM_HINT} with the order number.`,
  ].join('\n');
}
