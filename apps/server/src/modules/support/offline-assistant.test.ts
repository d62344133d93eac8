import { describe, expect, it } from 'vitest';
import type { Order } from '@keystore/contract';
import { offlineAnswer, rankEntries, UNKNOWN_ANSWER } from './offline-assistant.ts';

const best = (question: string) => rankEntries(question)[0]?.entry.id;
/** The first paragraph of the answer: the entry that matched best. */
const firstAnswer = (question: string) => offlineAnswer(question).split('\n\n')[0]!;

// The figures of the terms (SPEC §1), written out here rather than taken from the code: the test
// checks the answers against the terms, not against themselves.
describe('the offline assistant states the terms', () => {
  it('answers the non-delivery refund question with the refund rule, not the reveal-key FAQ', () => {
    const answer = offlineAnswer('Can I get a refund if my key is not delivered? How long do I have?');
    expect(answer.split('\n\n')[0]).toMatch(/refund within 30 days of the purchase/);
    expect(answer.split('\n\n')[0]).toMatch(/processed within 7 business days/);
    expect(answer).not.toMatch(/Reveal Key/);
  });

  it.each([
    'How do I get my money back?',
    'My key never arrived, can I ask for a refund?',
    'What is your refund policy?',
    'How many days do I have to request a refund?',
    'how long does a refund take?',
    'I want to return my order and be reimbursed',
  ])('refund: "%s" → 30 days for non-delivery, processed within 7 business days', (question) => {
    expect(firstAnswer(question)).toMatch(/not delivered.*within 30 days.*within 7 business days/);
  });

  it.each([
    'How long does delivery take?',
    'When will I get my key after paying?',
    'How fast do you deliver the keys?',
    'I paid an hour ago, when does my key arrive?',
    'How long until my key shows up?',
    'How long do I have to wait for my code?',
  ])('delivery: "%s" → at most 1 business day', (question) => {
    expect(firstAnswer(question)).toMatch(/Delivery takes at most 1 business day/);
  });

  it.each([
    'What are your support hours?',
    'When is customer support open?',
    'What time can I reach you?',
    'Are you available on weekends?',
    'What are your opening hours?',
    'How quickly do you answer emails?',
  ])('support hours: "%s" → 10:00–22:00 UK time, answers within 24 hours, most issues in 5 business days', (question) => {
    expect(firstAnswer(question)).toMatch(/10:00–22:00 UK time.*within 24 hours.*within 5 business days/);
  });

  it.each([
    'Is there an age limit?',
    'How old do I have to be to buy here?',
    'Can my 15 year old son buy games?',
    'Do I need to be over 18?',
    'Is this store for adults only?',
    'Are minors allowed to order?',
    'What is the minimum age?',
  ])('age: "%s" → adults 18+ only', (question) => {
    expect(firstAnswer(question)).toMatch(/adults 18\+ only/);
  });
});

describe('the offline assistant', () => {
  it.each([
    ['Can I get my money back?', 'refund'],
    ['I want a refund', 'refund'],
    ["When will I receive my game? It's been an hour", 'delivery'],
    ['When are you open?', 'hours'],
    ['Do you take PayPal?', 'payment'],
    ['Will a European key work in America?', 'region'],
    ['Can a 15 year old buy games here?', 'age'],
    ['Where can I find my product key?', 'reveal'],
    ['How do I redeem the code on Steam?', 'activate'],
    ['The key says already redeemed', 'key-problem'],
    ['What is the status of my order?', 'order-status'],
    ['Why is the price in euros?', 'price'],
    ['I forgot my password', 'account'],
    ['Can I talk to a human?', 'human'],
  ])('finds the entry for "%s"', (question, id) => {
    expect(best(question)).toBe(id);
  });

  it('says it does not know for questions outside the FAQ', () => {
    for (const question of ['What is the weather in London?', 'Tell me a joke', 'qwerty asdf']) expect(offlineAnswer(question)).toBe(UNKNOWN_ANSWER);
  });

  it('greets and thanks back', () => {
    expect(offlineAnswer('Hello!')).toMatch(/^Hello! I can help/);
    expect(offlineAnswer('thanks')).toMatch(/You're welcome/);
  });

  it("lists a signed-in customer's recent orders for order questions, and says when there are none", () => {
    const order = {
      _id: 'abcdef1234567890',
      items: 'Hades × 2',
      createdAt: '2026-11-20T10:00:00Z',
      status: 'Paid',
      deliveryStatus: 'Delivered',
      amount: 25,
    } as Order;
    const answer = offlineAnswer('where is my order', [order]);
    expect(answer).toContain('Order ABCDEF12 of 20 Nov 2026: Hades × 2, €25.00. Payment: Paid. Delivery: Delivered');
    expect(offlineAnswer('where is my order', [])).toMatch(/no orders yet/);
    expect(offlineAnswer('where is my order')).toMatch(/Profile/);
  });
});
