import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { OrdersService } from '../orders/service.ts';
import type { PaymentProvider } from './provider.ts';
import { testGatewayRoutes } from './routes.ts';
import { createStripeProvider } from './stripe.ts';
import { testGateway } from './test-gateway.ts';

/**
 * Payments on the app. New orders go to the configured provider: the test gateway's card form, or
 * Stripe with its webhook. The test gateway's refund stays available either way (orders placed on it
 * before a switch to Stripe can still be refunded), but its card form only while it is the
 * configured provider: a store taking real money must not accept test cards for leftover test orders.
 */
export async function registerPayments(
  app: FastifyInstance,
  { config, database, orders }: { config: Config; database: Database; orders: OrdersService },
): Promise<void> {
  const providers: PaymentProvider[] = [testGateway];
  if (config.payments.provider === 'stripe') {
    providers.push(await createStripeProvider({ app, config, database, outcomes: orders, log: app.log }));
  }
  orders.useProviders(providers);
  if (config.payments.provider === 'test') await app.register(testGatewayRoutes, { orders });
}
