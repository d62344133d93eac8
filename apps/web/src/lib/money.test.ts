import { describe, expect, it } from 'vitest';
import { formatEuro } from './money.ts';

describe('formatEuro', () => {
  it('writes euro with two decimals and thousands separators, like en-IE currency formatting', () => {
    const intl = new Intl.NumberFormat('en-IE', { style: 'currency', currency: 'EUR' });
    for (const amount of [0, 0.5, 1, 19.99, 19.999, 1249, 1234567.891, -5, 0.004]) {
      expect(formatEuro(amount), String(amount)).toBe(intl.format(amount).replace('−', '-'));
    }
  });
});
