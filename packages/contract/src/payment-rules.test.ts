import { describe, expect, it } from 'vitest';
import { TEST_CARDS } from './constants.ts';
import { orderMessages as m } from './messages.ts';
import { createOrderRequestSchema, testPaymentRequestSchema } from './orders.ts';
import { cardNumberProblem, expiryProblem, passesLuhn } from './payment-rules.ts';

describe('card rules', () => {
  it('passes the test cards and real-shaped numbers through Luhn, and nothing with a wrong check digit', () => {
    for (const card of Object.values(TEST_CARDS)) expect(passesLuhn(card)).toBe(true);
    expect(passesLuhn('5555555555554444')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
    expect(cardNumberProblem('4242 4242 4242 4242')).toBeUndefined();
    expect(cardNumberProblem('4242-4242-4242-4242')).toBeUndefined();
    expect(cardNumberProblem('4242 4242 4242 424x')).toBe(m.cardNumberInvalid);
    expect(cardNumberProblem('   ')).toBe(m.cardNumberRequired);
  });

  it('takes a card through the last day of its expiry month', () => {
    const now = new Date('2027-03-31T23:59:00Z');
    expect(expiryProblem('03/27', now)).toBeUndefined();
    expect(expiryProblem('02/27', now)).toBe(m.expiryPast);
    expect(expiryProblem('12/26', now)).toBe(m.expiryPast);
    expect(expiryProblem('04 / 27', now)).toBeUndefined();
    expect(expiryProblem('00/28', now)).toBe(m.expiryFormat);
    expect(expiryProblem('3/28', now)).toBe(m.expiryFormat);
  });

  it('hands the server the card number as digits and the name trimmed', () => {
    const parsed = testPaymentRequestSchema.parse({ cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123', name: '  Ada  ' });
    expect(parsed).toEqual({ cardNumber: TEST_CARDS.pays, expiry: '12/39', cvc: '123', name: 'Ada' });
  });
});

describe('order request', () => {
  it('keeps game ids and quantities only: a price sent by the client is dropped', () => {
    const parsed = createOrderRequestSchema.parse({ items: [{ gameId: 'g1', quantity: 2, price: 0.01 }] });
    expect(parsed).toEqual({ items: [{ gameId: 'g1', quantity: 2 }] });
  });
});
