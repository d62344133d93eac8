// The signature of every call to a seller's webhook (issue 24), like Stripe's: the header
// `Keystore-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the seller's secret>`.
// The receiver recomputes it over the raw body and refuses a timestamp older than five minutes, so a
// captured call cannot be replayed later. verifySignature is the README's receiver, the tests' too.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new signing secret: `whsec_` and 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function signatureHeader(secret: string, body: string, now = Date.now()): string {
  const t = Math.floor(now / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** Whether `header` signs `body` under `secret`, made within `toleranceSeconds` of now. */
export function verifySignature(header: string, body: string, secret: string, toleranceSeconds = 300, now = Date.now()): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(now / 1000 - t) > toleranceSeconds || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
