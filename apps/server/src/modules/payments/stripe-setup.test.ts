import { describe, expect, it } from 'vitest';
import { testConfig } from '../../test/helper.ts';
import type { PayableOrder } from './provider.ts';
import { checkoutSessionParams } from './stripe.ts';

describe('PAYMENT_PROVIDER=stripe configuration', () => {
  it('refuses to start without the secret key and the webhook secret, naming both', () => {
    expect(() => testConfig({ PAYMENT_PROVIDER: 'stripe' })).toThrow(
      /STRIPE_SECRET_KEY is required when PAYMENT_PROVIDER=stripe\n {2}STRIPE_WEBHOOK_SECRET is required when PAYMENT_PROVIDER=stripe/,
    );
    expect(() => testConfig({ PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(/STRIPE_WEBHOOK_SECRET is required/);
  });

  it('takes STRIPE_API_URL only as a URL', () => {
    const env = { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' };
    expect(() => testConfig({ ...env, STRIPE_API_URL: 'not a url' })).toThrow(/STRIPE_API_URL/);
    const { config, cleanup } = testConfig({ ...env, STRIPE_API_URL: 'http://127.0.0.1:12111' });
    cleanup();
    expect(config.payments).toMatchObject({ provider: 'stripe', stripeApiUrl: 'http://127.0.0.1:12111' });
  });
});

describe('the Checkout Session asked for an order', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  const order: PayableOrder = {
    id: 'ord_1',
    amountCents: 3597,
    currency: 'EUR',
    expiresAt: new Date(now + 30 * 60_000),
    customerEmail: 'buyer@gmail.com',
    lines: [
      { gameId: 'g1', title: 'Hollow Knight', image: 'https://cdn.example/hk.jpg', quantity: 2, unitPriceCents: 1299 },
      { gameId: 'g2', title: 'Celeste', image: '/covers/celeste.webp', quantity: 1, unitPriceCents: 999 },
    ],
  };

  it('prices each line in euro cents and names the game', () => {
    const params = checkoutSessionParams(order, 'https://shop.example', now);
    expect(params.mode).toBe('payment');
    expect(params.line_items).toEqual([
      { quantity: 2, price_data: { currency: 'eur', unit_amount: 1299, product_data: { name: 'Hollow Knight', metadata: { gameId: 'g1' }, images: ['https://cdn.example/hk.jpg'] } } },
      // A relative image is of no use to Stripe, which fetches images itself.
      { quantity: 1, price_data: { currency: 'eur', unit_amount: 999, product_data: { name: 'Celeste', metadata: { gameId: 'g2' } } } },
    ]);
    expect(params).toMatchObject({
      client_reference_id: 'ord_1',
      metadata: { orderId: 'ord_1' },
      customer_email: 'buyer@gmail.com',
      success_url: 'https://shop.example/library?order=ord_1&paid=1',
      cancel_url: 'https://shop.example/pay/ord_1?cancelled=1',
    });
  });

  it('expires with the order, but never sooner than the 30 minutes Stripe requires', () => {
    const soon = checkoutSessionParams({ ...order, expiresAt: new Date(now + 29 * 60_000) }, 'https://shop.example', now);
    expect(soon.expires_at! * 1000).toBeGreaterThan(now + 30 * 60_000);
    expect(soon.expires_at! * 1000).toBeLessThanOrEqual(now + 32 * 60_000);
    const later = checkoutSessionParams({ ...order, expiresAt: new Date(now + 3 * 3600_000) }, 'https://shop.example', now);
    expect(later.expires_at).toBe((now + 3 * 3600_000) / 1000);
  });

  it('leaves the e-mail to Stripe when the buyer has none on file', () => {
    expect(checkoutSessionParams({ ...order, customerEmail: undefined }, 'https://shop.example', now)).not.toHaveProperty('customer_email');
  });
});
