import { describe, expect, it } from 'vitest';
import type { Order } from '@keystore/contract';
import { offlineAnswer, rankEntries, UNKNOWN_ANSWER } from './offline-assistant.ts';

const best = (question: string) => rankEntries(question)[0]?.entry.id;

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
