import { describe, expect, it } from 'vitest';
import { MAX_UNPAID_KEYS, MAX_UNPAID_ORDERS, ORDER_LINE_MAX_QUANTITY } from './constants.ts';
import { orderMessages as m } from './messages.ts';

describe('the unpaid-hold refusals', () => {
  it('name the numbers the server enforces', () => {
    expect(m.tooManyUnpaidOrders).toContain(`You have ${MAX_UNPAID_ORDERS} orders`);
    expect(m.tooManyUnpaidKeys(0)).toContain(`at most ${MAX_UNPAID_KEYS} keys`);
    expect(m.tooManyUnpaidKeys(15)).toBe(
      `At most ${MAX_UNPAID_KEYS} keys can wait for payment at once, and your unpaid orders already hold 15. Pay or cancel one of them, or order fewer keys.`,
    );
    expect(m.tooManyUnpaidOfGame('Hades', 6)).toContain(`At most ${ORDER_LINE_MAX_QUANTITY} keys of "Hades"`);
  });
});
