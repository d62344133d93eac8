import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Stripe from 'stripe';
import { checkoutPageHtml, type CheckoutPageView } from './fake-stripe-page.ts';
import { LoopbackFake } from './loopback-server.ts';

/** One call the store made to the fake, form body decoded into the nested object Stripe would see. */
export interface StripeRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  body: Record<string, unknown>;
}

type CheckoutSession = Record<string, unknown> & { id: string; url: string; payment_intent: string };

/** A payment intent as this fake keeps it: its state, and what its charge says of the card. */
interface FakeIntent {
  id: string;
  status: string;
  amount: number;
  card: { riskLevel: 'normal' | 'elevated' | 'highest'; fingerprint: string; threeDSecure: boolean };
  metadata: Record<string, unknown>;
}

/** A payment intent as Stripe answers it, its latest charge expanded. */
function intentObject(intent: FakeIntent): Record<string, unknown> {
  const charged = intent.status === 'requires_capture' || intent.status === 'succeeded';
  return {
    id: intent.id,
    object: 'payment_intent',
    status: intent.status,
    amount: intent.amount,
    currency: 'eur',
    capture_method: 'manual',
    metadata: intent.metadata,
    latest_charge: charged
      ? {
          id: `ch_${intent.id.slice(3)}`,
          object: 'charge',
          outcome: { risk_level: intent.card.riskLevel, type: 'authorized' },
          payment_method_details: { type: 'card', card: { fingerprint: intent.card.fingerprint, three_d_secure: intent.card.threeDSecure ? { result: 'authenticated' } : null } },
        }
      : null,
  };
}
type Fault = { status: number; message?: string; code?: string };

/**
 * A fake of the few Stripe API calls the store makes, on loopback: Checkout Sessions and refunds,
 * with Stripe's idempotency (the same Idempotency-Key answers the first result again), and events
 * signed the way Stripe signs its webhooks. Each session's `url` is a hosted Checkout page on the
 * same server, for browser journeys: Pay completes the session, delivers `checkout.session.completed`
 * to `webhookUrl` and sends the browser to the session's success_url; Cancel to its cancel_url.
 */
export class FakeStripe extends LoopbackFake {
  readonly secretKey = 'sk_test_fake_keystore';
  readonly webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  readonly requests: StripeRequest[] = [];
  readonly sessions = new Map<string, CheckoutSession>();
  /** Answered to the next requests instead of their result (a Stripe outage, a rejected call). */
  readonly faults: Fault[] = [];
  private readonly replies = new Map<string, { status: number; body: unknown }>();
  /** What the hosted page lists of each session (real sessions carry their lines only when expanded). */
  private readonly pageLines = new Map<string, CheckoutPageView['lines']>();
  private readonly intents = new Map<string, FakeIntent>();
  private counter = 0;
  /** The store's webhook, where Pay on the hosted page delivers its event; set by a browser journey. */
  webhookUrl: string | undefined;

  /** The environment that points the store's Stripe provider at this fake. */
  env(): Record<string, string> {
    return { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: this.secretKey, STRIPE_WEBHOOK_SECRET: this.webhookSecret, STRIPE_API_URL: this.url };
  }

  /** The requests made to one endpoint, e.g. `POST /v1/refunds`. */
  calls(endpoint: string): StripeRequest[] {
    return this.requests.filter((request) => `${request.method} ${request.path}` === endpoint);
  }

  /** Radar's verdict on the card that pays an order's session (issue 29): its charge's `outcome.risk_level`, and its fingerprint. */
  cardFor(orderId: string, card: { riskLevel?: 'normal' | 'elevated' | 'highest'; fingerprint?: string; threeDSecure?: boolean }): void {
    const intent = this.intents.get(this.sessionFor(orderId).payment_intent)!;
    Object.assign(intent.card, card);
  }

  /** A payment intent's status (requires_capture, succeeded, canceled…). */
  intentStatus(paymentIntent: string): string | undefined {
    return this.intents.get(paymentIntent)?.status;
  }

  /** The Checkout Session made for one of our orders. */
  sessionFor(orderId: string): CheckoutSession {
    const session = [...this.sessions.values()].find((candidate) => candidate.client_reference_id === orderId);
    if (!session) throw new Error(`no checkout session for order ${orderId}`);
    return session;
  }

  /**
   * A Checkout Session event as Stripe would send it for a session this fake created, with the
   * session as it stands after the event (complete and paid, expired, ...); `session` overrides
   * fields, e.g. `{ payment_status: 'unpaid' }` for a completed checkout whose bank debit is settling
   * (with `intent: 'processing'`, its payment intent's state then; a card's is authorised, `requires_capture`).
   */
  sessionEvent(type: CheckoutEventType, sessionId: string, options: { id?: string; session?: Record<string, unknown>; intent?: string } = {}): StripeEvent {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no checkout session ${sessionId}`);
    const manual = session.capture_method === 'manual';
    // A manual session's payment is authorised when it completes: its intent waits for capture.
    if (type === 'checkout.session.completed' || type === 'checkout.session.async_payment_succeeded') {
      const intent = this.intents.get(session.payment_intent);
      if (intent && ['requires_payment_method', 'processing'].includes(intent.status)) intent.status = options.intent ?? (manual ? 'requires_capture' : 'succeeded');
    }
    const state: Record<CheckoutEventType, Record<string, unknown>> = {
      'checkout.session.completed': { status: 'complete', payment_status: manual ? 'unpaid' : 'paid' },
      'checkout.session.async_payment_succeeded': { status: 'complete', payment_status: 'paid' },
      'checkout.session.async_payment_failed': { status: 'complete', payment_status: 'unpaid' },
      'checkout.session.expired': { status: 'expired', payment_status: 'unpaid', payment_intent: null },
    };
    return {
      id: options.id ?? `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: '2025-01-01',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: { ...session, ...state[type], ...options.session } },
    };
  }

  /** An event after the sale about an order's payment, as Stripe sends it: a dispute opened or closed, or an early fraud warning. */
  paymentEvent(type: 'charge.dispute.created' | 'charge.dispute.closed' | 'radar.early_fraud_warning.created', orderId: string, object: Record<string, unknown> = {}): StripeEvent {
    const paymentIntent = this.sessionFor(orderId).payment_intent;
    const kind = type.startsWith('radar.') ? 'radar.early_fraud_warning' : 'dispute';
    return {
      id: `evt_${randomBytes(12).toString('hex')}`,
      object: 'event',
      api_version: '2025-01-01',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: { id: `${kind === 'dispute' ? 'dp' : 'issfr'}_${randomBytes(6).toString('hex')}`, object: kind, payment_intent: paymentIntent, charge: `ch_${paymentIntent.slice(3)}`, ...object } },
    };
  }

  /** The body and headers of a webhook delivery, signed with this fake's secret (or another one). */
  signed(event: StripeEvent | Record<string, unknown>, secret = this.webhookSecret): { payload: string; headers: Record<string, string> } {
    const payload = JSON.stringify(event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
    return { payload, headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature } };
  }

  protected async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of request) raw += chunk;
    const url = new URL(request.url ?? '/', this.url);
    // The buyer's browser, not the store: neither recorded, nor authenticated, nor answered with a fault.
    if (url.pathname.startsWith('/c/pay/')) return this.hostedPage(request.method ?? 'GET', url.pathname, response);
    const idempotencyKey = header(request, 'idempotency-key');
    const entry: StripeRequest = { method: request.method ?? '', path: url.pathname, idempotencyKey, body: decodeForm(raw) };
    this.requests.push(entry);
    const send = (status: number, body: unknown): void => {
      response.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_${this.requests.length}` }).end(JSON.stringify(body));
    };

    if (header(request, 'authorization') !== `Bearer ${this.secretKey}`) {
      return send(401, stripeError('invalid_request_error', 'Invalid API Key provided'));
    }
    const fault = this.faults.shift();
    if (fault) return send(fault.status, stripeError(fault.status >= 500 ? 'api_error' : 'invalid_request_error', fault.message ?? 'fault', fault.code));

    // Stripe keeps each keyed POST's first answer for 24 hours and answers it again for the same key.
    const replayKey = idempotencyKey && `${entry.method} ${entry.path} ${idempotencyKey}`;
    const replay = replayKey ? this.replies.get(replayKey) : undefined;
    if (replay) return send(replay.status, replay.body);
    const [status, body] = this.answer(entry);
    if (replayKey && entry.method === 'POST') this.replies.set(replayKey, { status, body });
    send(status, body);
  }

  /**
   * The hosted Checkout page of a session (GET), its Pay button (POST) and Cancel link (GET …/cancel).
   * Pay answers the redirect only once the store has taken the event (2xx), so the page the browser
   * lands on already knows the order is paid; real Stripe redirects at once and the webhook races it.
   */
  private async hostedPage(method: string, path: string, response: ServerResponse): Promise<void> {
    const [, id = '', cancel] = /^\/c\/pay\/([^/]+)(\/cancel)?$/.exec(path) ?? [];
    const session = this.sessions.get(decodeURIComponent(id));
    if (!session) return void response.writeHead(404, { 'Content-Type': 'text/plain' }).end('No such checkout session');
    const page = (status: number, closed?: string): void => {
      const view = { sessionId: session.id, amountCents: Number(session.amount_total), currency: String(session.currency), email: session.customer_email as string | null };
      const html = checkoutPageHtml({ ...view, lines: this.pageLines.get(session.id) ?? [], ...(closed && { closed }) });
      response.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
    };
    const redirect = (location: string): void => void response.writeHead(303, { Location: location }).end();

    if (session.status !== 'open') return page(method === 'GET' && !cancel ? 200 : 409, `This checkout is ${String(session.status)}.`);
    if (method === 'GET' && cancel) return redirect(String(session.cancel_url));
    if (method === 'GET') return page(200);
    if (method !== 'POST' || cancel) return page(405, `${method} is not how this page is used.`);

    const event = this.sessionEvent('checkout.session.completed', session.id);
    const failure = await this.deliver(event).then(
      (status) => (status < 300 ? undefined : `answered ${status}`),
      (error: unknown) => `could not be reached: ${String(error)}`,
    );
    if (failure) return page(502, `The store's webhook ${failure}.`);
    Object.assign(session, event.data.object);
    // Stripe fills in the session id where the success URL asks for it.
    redirect(String(session.success_url).replaceAll('{CHECKOUT_SESSION_ID}', session.id));
  }

  /** Delivers an event to the store's webhook, signed as Stripe signs it; answers the HTTP status. */
  private async deliver(event: StripeEvent): Promise<number> {
    if (!this.webhookUrl) throw new Error('FakeStripe.webhookUrl is not set, so Pay cannot tell the store');
    const { payload, headers } = this.signed(event);
    return (await fetch(this.webhookUrl, { method: 'POST', headers, body: payload })).status;
  }

  private answer(request: StripeRequest): [number, unknown] {
    const { method, path, body } = request;
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      this.counter += 1;
      const id = `cs_test_${this.counter}${randomBytes(6).toString('hex')}`;
      const lines = (body.line_items as Array<{ price_data: { unit_amount: string; product_data: { name: string } }; quantity: string }> | undefined) ?? [];
      const amount = lines.reduce((sum, line) => sum + Number(line.price_data.unit_amount) * Number(line.quantity), 0);
      const session: CheckoutSession = {
        id,
        object: 'checkout.session',
        url: `${this.url}/c/pay/${id}`,
        payment_intent: `pi_test_${this.counter}${randomBytes(6).toString('hex')}`,
        mode: body.mode,
        status: 'open',
        payment_status: 'unpaid',
        currency: 'eur',
        amount_total: amount,
        client_reference_id: body.client_reference_id ?? null,
        customer_email: body.customer_email ?? null,
        metadata: body.metadata ?? {},
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        expires_at: Number(body.expires_at),
        livemode: false,
        capture_method: (body.payment_intent_data as { capture_method?: string } | undefined)?.capture_method ?? 'automatic',
      };
      this.sessions.set(id, session);
      this.intents.set(session.payment_intent, { id: session.payment_intent, status: 'requires_payment_method', amount, card: { riskLevel: 'normal', fingerprint: `fp_${randomBytes(6).toString('hex')}`, threeDSecure: false }, metadata: (body.payment_intent_data as { metadata?: Record<string, unknown> } | undefined)?.metadata ?? {} });
      this.pageLines.set(id, lines.map((line) => ({ name: line.price_data.product_data.name, quantity: Number(line.quantity) })));
      return [200, session];
    }
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && retrieve) {
      const session = this.sessions.get(retrieve[1]!);
      return session ? [200, session] : [404, stripeError('invalid_request_error', `No such checkout.session: '${retrieve[1]}'`)];
    }
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (method === 'POST' && expire) {
      const session = this.sessions.get(expire[1]!);
      if (!session) return [404, stripeError('invalid_request_error', `No such checkout.session: '${expire[1]}'`)];
      if (session.status !== 'open') return [400, stripeError('invalid_request_error', `Only Checkout Sessions with a status of open can be expired.`)];
      session.status = 'expired';
      return [200, session];
    }
    const intentCall = /^\/v1\/payment_intents\/([^/]+)(?:\/(capture|cancel))?$/.exec(path);
    if (intentCall) {
      const intent = this.intents.get(intentCall[1]!);
      if (!intent) return [404, stripeError('invalid_request_error', `No such payment_intent: '${intentCall[1]}'`)];
      const action = intentCall[2];
      if (method === 'POST' && action) {
        if (intent.status !== 'requires_capture') return [400, stripeError('invalid_request_error', `This PaymentIntent could not be ${action === 'capture' ? 'captured' : 'canceled'} because it has a status of ${intent.status}.`, 'payment_intent_unexpected_state')];
        intent.status = action === 'capture' ? 'succeeded' : 'canceled';
      } else if (method !== 'GET') return [405, stripeError('invalid_request_error', 'Method not allowed')];
      return [200, intentObject(intent)];
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const paymentIntent = String(body.payment_intent ?? '');
      const session = [...this.sessions.values()].find((candidate) => candidate.payment_intent === paymentIntent);
      if (!session) return [400, stripeError('invalid_request_error', `No such payment_intent: '${paymentIntent}'`)];
      return [200, { id: `re_test_${this.requests.length}`, object: 'refund', status: 'succeeded', payment_intent: paymentIntent, amount: session.amount_total, currency: 'eur' }];
    }
    return [404, stripeError('invalid_request_error', `Unrecognized request URL (${method}: ${path})`)];
  }
}

export type CheckoutEventType =
  | 'checkout.session.completed'
  | 'checkout.session.async_payment_succeeded'
  | 'checkout.session.async_payment_failed'
  | 'checkout.session.expired';

export interface StripeEvent {
  id: string;
  object: 'event';
  type: string;
  data: { object: Record<string, unknown> };
  [field: string]: unknown;
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function stripeError(type: string, message: string, code?: string): { error: { type: string; message: string; code?: string } } {
  return { error: { type, message, ...(code && { code }) } };
}

/**
 * Decodes Stripe's form encoding (`line_items[0][price_data][currency]=eur`) into nested objects;
 * keys that are all digits make arrays, as Stripe reads them.
 */
function decodeForm(raw: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) {
        node[part] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(path[index + 1]!);
      node[part] ??= nextIsIndex ? [] : {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return root;
}
