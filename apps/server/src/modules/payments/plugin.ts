import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { PaymentOutcomes, PaymentProvider } from './provider.ts';
import type { RiskService } from '../risk/ports.ts';
import { testGatewayRoutes, type TestGatewayOrders } from './routes.ts';
import { createStripeProvider, stripeClient } from './stripe.ts';
import { stripeWebhookRoutes } from './stripe-webhook.ts';
import { testGateway } from './test-gateway.ts';
import { TestGatewayDisputes } from './test-disputes.ts';

/** The payment providers, built before the orders module that opens checkouts and refunds through them. */
interface Payments {
  providers: PaymentProvider[];
  /** Stripe's client when Stripe is the configured provider (its webhook checks signatures with it). */
  stripe: Stripe | undefined;
}

/**
 * New orders go to the configured provider: the test gateway's card form, or Stripe with its
 * webhook. The test gateway's refund stays available either way (orders placed on it before a switch
 * to Stripe can still be refunded).
 */
export function paymentsFromConfig(config: Config): Payments {
  if (config.payments.provider !== 'stripe') return { providers: [testGateway], stripe: undefined };
  const stripe = stripeClient(config.payments);
  return { providers: [testGateway, createStripeProvider(stripe, config.publicUrl)], stripe };
}

/**
 * The routes by which payments reach the orders module: Stripe's webhook, or the test gateway's card
 * form while it is the configured provider (a store taking real money must not accept test cards
 * for leftover test orders).
 */
export async function registerPaymentRoutes(
  app: FastifyInstance,
  { config, database, payments, orders, risk }: { config: Config; database: Database; payments: Payments; orders: PaymentOutcomes & TestGatewayOrders; risk: RiskService },
): Promise<void> {
  if (payments.stripe) {
    await app.register(stripeWebhookRoutes, { stripe: payments.stripe, webhookSecret: config.payments.stripeWebhookSecret!, db: database.db, outcomes: orders });
  }
  if (config.payments.provider === 'test') {
    const disputes = new TestGatewayDisputes(database, orders, app.log);
    app.addHook('onReady', () => disputes.start());
    app.addHook('onClose', () => disputes.stop());
    await app.register(testGatewayRoutes, { orders, cardTesting: risk.cardTesting, disputes });
  }
}
