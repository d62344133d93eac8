import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema, orderIdParamsSchema, orderMessages, orderTokenQuerySchema, riskMessages, RISK_TEST_CARDS, testPaymentAnswerSchema, testPaymentRequestSchema } from '@keystore/contract';
import { Conflict } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { accessOf, accountOrGuest, OrderNotPayable, sessionIfSent, type OrdersService } from '../orders/ports.ts';
import { cardVerdict } from './test-gateway.ts';
import type { TestGatewayDisputes } from './test-disputes.ts';
import { browserOf, clientIp } from '../../platform/client-ip.ts';
import type { RiskService } from '../risk/ports.ts';

/** What the card form asks of the risk desk: card testing's lockouts and declines. */
type CardTestingPort = Pick<RiskService['cardTesting'], 'refuseIfLockedOut' | 'noteDecline'>;

/** What the card form needs of the orders module. */
export type TestGatewayOrders = Pick<OrdersService, 'payableOrder' | 'markDeclined' | 'payAsCustomer' | 'recipientOf'>;

/** A customer pays signed in; a guest with its order's signed link (issue 29). */
const bearerOrLink: Array<Record<string, string[]>> = [{ bearerAuth: [] }, {}];

/** The test gateway's card form submission (DESIGN §4). The pay page reads the order from GET /api/orders/{id}. */
export const testGatewayRoutes: FastifyPluginAsyncZod<{ orders: TestGatewayOrders; cardTesting: CardTestingPort; disputes: Pick<TestGatewayDisputes, 'schedulePayment'> }> = async (
  app,
  { orders, cardTesting, disputes },
) => {
  app.post(
    '/api/payments/test/:id',
    {
      // A customer is signed in, and a stranger without the order's link refused, before the purchase turn.
      onRequest: sessionIfSent(app),
      preHandler: accountOrGuest((request) => (request.query as { token?: string }).token),
      // Counted with the purchases under way, never shed: the order it pays was let in.
      config: { admission: 'payment' },
      schema: {
        operationId: 'payOrderWithTestCard',
        tags: ['payments'],
        summary: 'Pays an order with a test card: 4242… pays, 4000…0002 is declined, 4000…9995 has insufficient funds',
        security: bearerOrLink,
        params: orderIdParamsSchema,
        querystring: orderTokenQuerySchema,
        body: testPaymentRequestSchema,
        response: { 200: testPaymentAnswerSchema, 400: errorSchema, 401: errorSchema, 404: errorSchema, 409: errorSchema, 429: errorSchema },
      },
    },
    async (request) => {
      const access = await accessOf(app, request, request.query.token);
      const orderId = request.params.id;
      // Where the buyer goes next: the library, or a guest's order page, which its link opens.
      const after = access.userId ? `/library?order=${orderId}` : `/orders/${orderId}?token=${encodeURIComponent(request.query.token!)}`;
      const payer = { address: clientIp(request), browser: browserOf(request) };
      const pay = request.body.cardNumber;
      const verdict = cardVerdict(pay);
      /** A declined payment counts against its address, browser and e-mail. */
      const noteDecline = async () => cardTesting.noteDecline({ ...payer, email: (await orders.recipientOf(orderId))?.email });
      // Card testing (issue 29): an address or browser with 3 declines in 10 minutes pays nothing for a
      // day (a card that pays is refused in the risk desk's one read, payer below).
      if (!verdict.paid) {
        await cardTesting.refuseIfLockedOut(payer);
        await orders.payableOrder(orderId, access, 'test');
        await orders.markDeclined(orderId, verdict.reason);
        await noteDecline();
        // Another card paid it a moment ago (two tabs): the decline changed nothing, say what did happen.
        await orders.payableOrder(orderId, access, 'test').catch((error: unknown) => {
          if (!(error instanceof OrderNotPayable) || error.orderStatus !== 'Declined') throw error;
        });
        return { status: 'Declined' as const, deliveryStatus: 'Not delivered' as const, message: verdict.reason, redirectUrl: access.userId ? `/pay/${orderId}` : `/pay/${orderId}?token=${encodeURIComponent(request.query.token!)}` };
      }
      // Checked and paid in one statement (404 or 409 when the order is not this customer's to pay).
      // The purchase turn ends with the payment's commit: waiting for the supplier's keys holds none.
      const outcome = await orders.payAsCustomer(orderId, access, 'test', { providerRef: `test_${newId(20)}`, card: verdict.card, payer, onCommitted: () => request.admission?.leave() });
      // The disputed card's payment is disputed a few seconds later (issue 29).
      if (pay === RISK_TEST_CARDS.disputed && outcome.newlyPaid) await disputes.schedulePayment(orderId);
      // Held for review: authorised, not charged (issue 29); refused by the risk desk: nothing charged.
      if (outcome.status === 'In review') return { status: 'In review' as const, deliveryStatus: 'Pending' as const, message: riskMessages.inReviewNote, redirectUrl: after };
      if (outcome.status === 'Declined') {
        await noteDecline();
        return { status: 'Declined' as const, deliveryStatus: 'Not delivered' as const, message: riskMessages.paymentRefused, redirectUrl: access.userId ? `/pay/${orderId}` : `/pay/${orderId}?token=${encodeURIComponent(request.query.token!)}` };
      }
      // Only through payAsCustomer's fallback (the SQL check and payableOrder disagreeing): a payment
      // taken for an order whose keys were sold meanwhile is refunded at once, and the order is lapsed.
      if (outcome.status === 'Refunded' && !outcome.newlyPaid) throw new Conflict(orderMessages.orderExpired);
      // Paid, then refunded by the delivery itself: no key could be bought at the price the buyer paid.
      if (outcome.status === 'Refunded') {
        return { status: 'Paid' as const, deliveryStatus: 'Not delivered' as const, message: orderMessages.paymentRefundedPriceRose, redirectUrl: after };
      }
      const delivered = outcome.deliveryStatus === 'Delivered';
      return {
        status: 'Paid' as const,
        deliveryStatus: outcome.deliveryStatus,
        message: delivered ? (outcome.gift ? orderMessages.giftPaymentSucceeded : access.userId ? orderMessages.paymentSucceeded : orderMessages.guestPaymentSucceeded) : orderMessages.paymentSucceededDelayed,
        redirectUrl: after,
      };
    },
  );
};
