// Stripe as the payment provider (PAYMENT_PROVIDER=stripe): the buyer pays on Stripe's hosted
// Checkout page; Stripe tells us the outcome through the signed webhook (stripe-webhook.ts).
import Stripe from 'stripe';
import { orderMessages } from '@keystore/contract';
import type { Config } from '../../config.ts';
import { Conflict } from '../../platform/errors.ts';
import type { Checkout, PayableOrder, PaymentProvider, RefundableOrder } from './provider.ts';
import type { CardScreening } from '../risk/ports.ts';

/** Stripe accepts a Checkout Session expiry from 30 minutes to 24 hours after the session is made. */
const STRIPE_MIN_SESSION_MS = 30 * 60_000;
/** Our clock and Stripe's differ, and the request takes time: asking for exactly 30 minutes could be refused. */
const EXPIRY_SLACK_MS = 60_000;

/** The official SDK, pointed at STRIPE_API_URL when set (tests, stripe-mock). */
export function stripeClient(payments: Config['payments']): Stripe {
  const api = payments.stripeApiUrl ? new URL(payments.stripeApiUrl) : undefined;
  return new Stripe(payments.stripeSecretKey!, {
    // The SDK retries network failures and 409/5xx answers itself, with the same idempotency key.
    maxNetworkRetries: 2,
    // A buyer waits for the order answer while the session is made: fail in seconds, not the SDK's 80.
    timeout: 20_000,
    appInfo: { name: 'Keystore' },
    ...(api && {
      host: api.hostname,
      port: Number(api.port || (api.protocol === 'https:' ? 443 : 80)),
      protocol: api.protocol === 'http:' ? ('http' as const) : ('https' as const),
    }),
  });
}

/**
 * What we ask Stripe for an order: one EUR `price_data` line per order line at the price the
 * server fixed, our order id twice (client_reference_id for the dashboard, metadata for events),
 * back to the library when paid and to the pay page when cancelled.
 */
export function checkoutSessionParams(order: PayableOrder, publicUrl: string, now: number = Date.now()): Stripe.Checkout.SessionCreateParams {
  const id = encodeURIComponent(order.id);
  // The order holds its stock for 30 minutes; Stripe's shortest session is 30 minutes from now, so the
  // session may outlive the order by moments. A payment that lands then is markPaid's case of a late payment.
  const expiresAt = Math.max(order.expiresAt.getTime(), now + STRIPE_MIN_SESSION_MS + EXPIRY_SLACK_MS);
  return {
    mode: 'payment',
    line_items: order.lines.map((line) => ({
      quantity: line.quantity,
      price_data: {
        currency: order.currency.toLowerCase(),
        unit_amount: line.unitPriceCents,
        product_data: {
          name: line.title,
          metadata: { gameId: line.gameId },
          // Stripe fetches images itself, so only absolute https addresses are of use to it.
          ...(line.image.startsWith('https://') && { images: [line.image] }),
        },
      },
    })),
    client_reference_id: order.id,
    metadata: { orderId: order.id },
    // Authorised only: the risk desk decides before the money is taken (issue 29). Stripe fixes this when
    // the session is made, before the risk is known, so every session is manual; accepted orders are captured at once.
    payment_intent_data: { metadata: { orderId: order.id }, capture_method: 'manual' },
    ...(order.customerEmail && { customer_email: order.customerEmail }),
    // A guest has no library: it comes back to its order's page, which its token opens.
    success_url: order.returnToken ? `${publicUrl}/orders/${id}?token=${order.returnToken}&paid=1` : `${publicUrl}/library?order=${id}&paid=1`,
    cancel_url: `${publicUrl}/pay/${id}?${order.returnToken ? `token=${order.returnToken}&` : ''}cancelled=1`,
    expires_at: Math.ceil(expiresAt / 1000),
  };
}

/** The payment intent of a Checkout Session reference (what markPaid stored, or the session id set at checkout). */
async function paymentIntentOf(stripe: Stripe, providerRef: string): Promise<string | undefined> {
  if (providerRef.startsWith('pi_')) return providerRef;
  if (!providerRef.startsWith('cs_')) return undefined;
  const session = await stripe.checkout.sessions.retrieve(providerRef);
  const intent = session.payment_intent;
  return typeof intent === 'string' ? intent : intent?.id;
}

class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  private readonly stripe: Stripe;
  private readonly publicUrl: string;

  constructor(stripe: Stripe, publicUrl: string) {
    this.stripe = stripe;
    this.publicUrl = publicUrl;
  }

  async openCheckout(order: PayableOrder): Promise<Checkout> {
    // Keyed by the order: a retried request (by the SDK or after a lost answer) gets the same session, never a second one.
    const session = await this.stripe.checkout.sessions.create(checkoutSessionParams(order, this.publicUrl), {
      idempotencyKey: `keystore-checkout-${order.id}`,
    });
    if (!session.url) throw new Error(`Stripe answered Checkout Session ${session.id} without a url`);
    // Until the payment intent arrives with the payment, the session is how a refund finds the money.
    return { url: session.url, providerRef: session.id };
  }

  async reopenUrl(order: { id: string; providerRef: string | null }): Promise<string> {
    // Set when the session was made, and replaced by the payment intent only once the order is paid.
    if (!order.providerRef?.startsWith('cs_')) throw new Error(`Order ${order.id} has no Checkout Session to reopen`);
    const session = await this.stripe.checkout.sessions.retrieve(order.providerRef);
    if (session.status === 'open' && session.url) return session.url;
    // Complete but unpaid is a bank debit settling (its outcome comes by webhook); anything else has lapsed.
    throw new Conflict(session.status === 'complete' ? orderMessages.paymentProcessing : orderMessages.orderExpired);
  }

  async closeCheckout(order: { id: string; providerRef: string | null }): Promise<void> {
    // The customer cancelled the order: its session must not take money for keys that went back on the shelf.
    if (!order.providerRef?.startsWith('cs_')) return;
    const session = await this.stripe.checkout.sessions.retrieve(order.providerRef);
    if (session.status === 'open') await this.stripe.checkout.sessions.expire(order.providerRef);
  }

  async refund(order: RefundableOrder): Promise<void> {
    const paymentIntent = order.providerRef ? await paymentIntentOf(this.stripe, order.providerRef) : undefined;
    if (!paymentIntent) throw new Error(`Order ${order.id} has no Stripe payment to refund`);
    try {
      // Keyed by the order (and the part): a refund retried after a crash or a lost answer gives the
      // money back once. Without an amount Stripe returns what is left of the payment.
      await this.stripe.refunds.create(
        { payment_intent: paymentIntent, metadata: { orderId: order.id }, ...(order.part && { amount: order.amountCents }) },
        { idempotencyKey: order.part ? `keystore-refund-${order.id}-${order.part}` : `keystore-refund-${order.id}` },
      );
    } catch (error) {
      // Past the 24 hours Stripe keeps idempotency keys, a repeated refund is refused as already done: that is success.
      if (error instanceof Stripe.errors.StripeError && error.code === 'charge_already_refunded') return;
      throw error;
    }
  }

  async capture(order: { id: string; providerRef: string | null }): Promise<void> {
    const intent = await this.intentOf(order);
    if (intent.status === 'succeeded') return;
    if (intent.status !== 'requires_capture') throw new Error(`Stripe payment ${intent.id} of order ${order.id} cannot be captured: it is ${intent.status}`);
    await this.stripe.paymentIntents.capture(intent.id, {}, { idempotencyKey: `keystore-capture-${order.id}` });
  }

  async releaseAuthorisation(order: { id: string; providerRef: string | null }): Promise<void> {
    const intent = await this.intentOf(order);
    if (intent.status === 'canceled') return;
    // Captured already (a session made before sessions were authorised only): the money goes back instead.
    if (intent.status === 'succeeded') return this.refund({ id: order.id, amountCents: intent.amount, currency: intent.currency, providerRef: intent.id });
    if (intent.status !== 'requires_capture') throw new Error(`Stripe payment ${intent.id} of order ${order.id} cannot be released: it is ${intent.status}`);
    await this.stripe.paymentIntents.cancel(intent.id, {}, { idempotencyKey: `keystore-release-${order.id}` });
  }

  private async intentOf(order: { id: string; providerRef: string | null }): Promise<Stripe.PaymentIntent> {
    const id = order.providerRef ? await paymentIntentOf(this.stripe, order.providerRef) : undefined;
    if (!id) throw new Error(`Order ${order.id} has no Stripe payment`);
    return this.stripe.paymentIntents.retrieve(id);
  }
}

/** What a payment's charge tells the risk desk: Radar's risk level, the card's fingerprint, and whether 3-D Secure authenticated it. */
export function cardOfCharge(charge: Stripe.Charge | null | undefined): CardScreening {
  const level = charge?.outcome?.risk_level;
  const card = charge?.payment_method_details?.card;
  return {
    fingerprint: card?.fingerprint ?? undefined,
    providerRisk: level === 'elevated' || level === 'highest' ? level : 'normal',
    threeDSecure: card?.three_d_secure?.result === 'authenticated',
  };
}

/** The Stripe provider on a client of its own; its webhook (stripe-webhook.ts) is registered with the orders module. */
export function createStripeProvider(stripe: Stripe, publicUrl: string): PaymentProvider {
  return new StripeProvider(stripe, publicUrl);
}
