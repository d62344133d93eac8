import { describe, expect, it } from 'vitest';
import { lowestPriceBefore, priceDropReached } from './wishlist-rules.ts';

const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString();

describe('the 30-day lowest price', () => {
  it('is the lowest price in the 30 days before the current price began', () => {
    const series = [
      { date: day(0), price: 20 },
      { date: day(25), price: 30 },
      { date: day(50), price: 25 },
      { date: day(60), price: 15 },
      { date: day(61), price: 15 },
    ];
    // Day 0's €20 ended on day 25, more than 30 days before day 60: it does not count.
    expect(lowestPriceBefore(series)).toBe(25);
  });

  it('counts a price that was still in force when the 30 days began', () => {
    expect(lowestPriceBefore([{ date: day(0), price: 18 }, { date: day(45), price: 30 }, { date: day(60), price: 20 }])).toBe(18);
  });

  it('is the current price when nothing came before it', () => {
    expect(lowestPriceBefore([{ date: day(0), price: 9 }, { date: day(3), price: 9 }])).toBe(9);
    expect(lowestPriceBefore([])).toBeUndefined();
  });
});

describe('a price low enough for an alert', () => {
  it('is 10 % below the price when wished for, or at most the target when one is set', () => {
    expect(priceDropReached(900, 1000, null)).toBe(true);
    expect(priceDropReached(901, 1000, null)).toBe(false);
    expect(priceDropReached(950, 1000, 950)).toBe(true);
    expect(priceDropReached(951, 1000, 950)).toBe(false);
  });
});

describe('activation and region', () => {
  it('names the launcher of each platform, and of a PC key the one the feed named', async () => {
    const { activationFor, regionWarning } = await import('./activation-rules.ts');
    expect(activationFor('Steam').launcher).toBe('Steam');
    expect(activationFor('Origin').launcher).toBe('EA app');
    expect(activationFor('PS5').redeemUrl).toBe('https://store.playstation.com/redeem');
    expect(activationFor('Xbox Series X').launcher).toBe('Xbox');
    expect(activationFor('Nintendo Switch').launcher).toBe('Nintendo');
    expect(activationFor('PC', 'PC Epic Games').launcher).toBe('Epic Games');
    expect(activationFor('PC', 'PC Battle.net').launcher).toBe('Battle.net');
    expect(activationFor('PC').launcher).toBe('PC');

    expect(regionWarning('Europe', 'US')).toBe('This key works in Europe only. It may not activate in your region (US).');
    expect(regionWarning('Europe', 'DE')).toBeUndefined();
    expect(regionWarning('Global', 'US')).toBeUndefined();
    expect(regionWarning('US', null)).toBeUndefined();
    expect(regionWarning('Asia', 'BR')).toBe('This key works in Asia only. It may not activate in your region (BR).');
  });
});
