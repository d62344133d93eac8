// POST /api/payments/stripe/webhook: Stripe's word on a Checkout Session, verified and acted on once.
//
// Stripe delivers at least once, in no fixed order, and retries until it gets a 2xx. So: the
// signature is checked over the raw bytes; each event id is acted on once (payment_events); and
// every action is one of PaymentOutcomes' idempotent, forward-only calls, so a late `expired` or
// `async_payment_failed` can never undo a payment. A paid session pays the order only when Stripe
// took the order's amount in its currency (markPaid compares them).
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type Stripe from 'stripe';
import { z } from 'zod';
import { DISPUTE_FEE_CENTS, errorSchema, orderMessages } from '@keystore/contract';
import type { Db } from '../../db/client.ts';
import { NotFound } from '../../platform/errors.ts';
import { eventHandled, recordEvent } from './webhook-events.ts';
import { cardOfCharge } from './stripe.ts';
import type { PaymentOutcomes, ReceivedAmount } from './provider.ts';
import { NO_AUTH } from '../../platform/openapi.ts';

export const STRIPE_WEBHOOK_PATH = '/api/payments/stripe/webhook';

/** What a Checkout event asks of the orders module. */
export type CheckoutAction =
  | { kind: 'pay'; orderId: string; sessionId: string; paymentIntent: string | undefined; amount: ReceivedAmount; unpaid: boolean }
  | { kind: 'decline'; orderId: string }
  | { kind: 'expire'; orderId: string }
  | { kind: 'none'; orderId: string | undefined }
  // After the sale (issue 29): the order is named by the payment intent's metadata.
  | { kind: 'dispute'; orderId: undefined; paymentIntent: string | undefined; reference: string; feeCents: number }
  | { kind: 'dispute-closed'; orderId: undefined; paymentIntent: string | undefined; won: boolean }
  | { kind: 'fraud-warning'; orderId: undefined; paymentIntent: string | undefined };

/** Reads an event: which order it is about and what it means for it. Events of other kinds mean nothing here. */
function checkoutAction(event: Stripe.Event): CheckoutAction {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      const orderId = orderIdOf(session);
      if (!orderId) return { kind: 'none', orderId };
      // 'unpaid' is an asynchronous method (a bank debit) still settling: async_payment_* follows.
      // Unpaid: authorised and waiting for capture (every session is manual, issue 29), or a bank debit
      // still settling (async_payment_* follows); the payment intent tells which.
      return payAction(orderId, session, session.payment_status === 'unpaid');
    }
    case 'checkout.session.async_payment_succeeded': {
      const orderId = orderIdOf(event.data.object);
      return orderId ? payAction(orderId, event.data.object) : { kind: 'none', orderId };
    }
    case 'checkout.session.async_payment_failed': {
      const orderId = orderIdOf(event.data.object);
      return orderId ? { kind: 'decline', orderId } : { kind: 'none', orderId };
    }
    case 'checkout.session.expired': {
      const orderId = orderIdOf(event.data.object);
      return orderId ? { kind: 'expire', orderId } : { kind: 'none', orderId };
    }
    case 'charge.dispute.created': {
      const dispute = event.data.object;
      const fee = dispute.balance_transactions?.reduce((sum, transaction) => sum + (transaction.fee ?? 0), 0);
      return { kind: 'dispute', orderId: undefined, paymentIntent: idOf(dispute.payment_intent), reference: dispute.id, feeCents: fee || DISPUTE_FEE_CENTS };
    }
    case 'charge.dispute.closed':
      return { kind: 'dispute-closed', orderId: undefined, paymentIntent: idOf(event.data.object.payment_intent), won: event.data.object.status === 'won' };
    case 'radar.early_fraud_warning.created':
      return { kind: 'fraud-warning', orderId: undefined, paymentIntent: idOf(event.data.object.payment_intent ?? null) };
    default:
      return { kind: 'none', orderId: undefined };
  }
}

/** A paid (or authorised) session: the order is paid only if Stripe took its amount (markPaid checks it). */
function payAction(orderId: string, session: Stripe.Checkout.Session, unpaid = false): CheckoutAction {
  return { kind: 'pay', orderId, sessionId: session.id, paymentIntent: intentId(session), amount: { cents: session.amount_total, currency: session.currency }, unpaid };
}

/** Our order id on a session; a session without one was not made by this store (a payment link, another app). */
function orderIdOf(session: Stripe.Checkout.Session): string | undefined {
  return session.client_reference_id ?? session.metadata?.orderId ?? undefined;
}

function intentId(session: Stripe.Checkout.Session): string | undefined {
  return idOf(session.payment_intent);
}

function idOf(intent: string | { id: string } | null | undefined): string | undefined {
  return typeof intent === 'string' ? intent : (intent?.id ?? undefined);
}

export interface StripeWebhookOptions {
  stripe: Stripe;
  webhookSecret: string;
  db: Db;
  outcomes: PaymentOutcomes;
}

/**
 * The webhook route, in a plugin of its own: inside it every body is kept as the raw Buffer the
 * signature was computed over, while the rest of the app goes on parsing JSON as usual.
 */
export const stripeWebhookRoutes: FastifyPluginAsyncZod<StripeWebhookOptions> = async (app, { stripe, webhookSecret, db, outcomes }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  /**
   * Carries out what an event asks; an event about an order we do not know is logged and dropped.
   * Answers the order it was about (an event after the sale names it through its payment).
   */
  async function act(event: Stripe.Event, action: CheckoutAction, log: FastifyBaseLogger): Promise<string | undefined> {
    let resolved = action.orderId;
    try {
      if (action.kind === 'pay') {
        // The charge tells the risk desk the card's risk, fingerprint and 3-D Secure; an authorised
        // payment is captured only once the desk accepts the order (markPaid, issue 29).
        // An event naming no payment intent: the session knows it.
        const intentId = action.paymentIntent ?? idOf((await stripe.checkout.sessions.retrieve(action.sessionId)).payment_intent);
        const intent = intentId ? await stripe.paymentIntents.retrieve(intentId, { expand: ['latest_charge'] }) : undefined;
        const authorised = intent?.status === 'requires_capture';
        // Completed unpaid and not authorised: a bank debit still settling (async_payment_* follows).
        if (action.unpaid && !authorised) return resolved;
        const charge = typeof intent?.latest_charge === 'object' ? intent.latest_charge : undefined;
        // A wrong amount is refused inside markPaid and logged there; the event is still answered 2xx and recorded, as resending it would not change the sum.
        await outcomes.markPaid(action.orderId, {
          amount: action.amount,
          deliverInBackground: true,
          card: cardOfCharge(charge),
          ...(authorised && { authorisedWith: 'stripe' as const }),
          ...(intentId && { providerRef: intentId }),
        });
      }
      else if (action.kind === 'dispute' || action.kind === 'dispute-closed' || action.kind === 'fraud-warning') {
        // Our order id rides on the payment intent's metadata (checkoutSessionParams).
        const orderId = action.paymentIntent ? (await stripe.paymentIntents.retrieve(action.paymentIntent)).metadata?.orderId : undefined;
        if (!orderId) {
          log.warn({ eventId: event.id, type: event.type }, 'Stripe event for a payment of no order of ours');
          return undefined;
        }
        resolved = orderId;
        if (action.kind === 'dispute') await outcomes.markDisputed(orderId, { reference: action.reference, feeCents: action.feeCents });
        else if (action.kind === 'dispute-closed') await outcomes.markDisputeClosed(orderId, action.won);
        else await outcomes.markFraudWarning(orderId);
      }
      else if (action.kind === 'decline') await outcomes.markDeclined(action.orderId, orderMessages.asyncPaymentFailed);
      else if (action.kind === 'expire') await outcomes.markExpired(action.orderId);
    } catch (error) {
      // Another store (staging) sharing the Stripe account sees our events too; retrying would not help.
      if (error instanceof NotFound) log.warn({ eventId: event.id, type: event.type, orderId: resolved }, 'Stripe event for an unknown order');
      else throw error;
    }
    return resolved;
  }

  app.post(
    STRIPE_WEBHOOK_PATH,
    {
      schema: {
        operationId: 'receiveStripeWebhook',
        security: NO_AUTH,
        tags: ['payments'],
        summary: 'Stripe webhook: Checkout Session events, signed with STRIPE_WEBHOOK_SECRET',
        response: { 200: z.object({ received: z.literal(true) }), 400: errorSchema },
      },
    },
    async (request, reply) => {
      const signature = request.headers['stripe-signature'];
      let event: Stripe.Event;
      try {
        if (!Buffer.isBuffer(request.body) || typeof signature !== 'string') throw new Error('unsigned');
        event = stripe.webhooks.constructEvent(request.body, signature, webhookSecret);
      } catch (error) {
        // Logged: a wrong STRIPE_WEBHOOK_SECRET shows up here as every delivery refused.
        request.log.warn({ err: error }, 'Stripe webhook refused: invalid signature');
        return reply.code(400).send({ error: 'Invalid Stripe signature' });
      }
      // Acted first, recorded after (webhook-events.ts): a failure half-way leaves the event unrecorded,
      // so Stripe's retry carries it out; the actions are idempotent, so a concurrent copy is harmless.
      if (await eventHandled(db, 'stripe', event.id)) return { received: true as const };
      const action = checkoutAction(event);
      const orderId = await act(event, action, request.log);
      await recordEvent(db, { provider: 'stripe', eventId: event.id, type: event.type, orderId: orderId ?? null });
      return { received: true as const };
    },
  );
};
