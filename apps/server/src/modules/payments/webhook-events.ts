// Webhook idempotency: each provider event is acted on once. The handler acts first (every
// PaymentOutcomes call is idempotent) and records the event afterwards, so an event whose handling
// failed half-way is handled again when the provider resends it.
import { and, eq } from 'drizzle-orm';
import type { PaymentProviderName } from '@keystore/contract';
import type { Db } from '../../db/client.ts';
import { paymentEvents } from './schema.ts';

export interface PaymentEvent {
  provider: PaymentProviderName;
  eventId: string;
  type: string;
  orderId?: string | null;
}

/** Whether the event has been handled before. */
export async function eventHandled(db: Db, provider: PaymentProviderName, eventId: string): Promise<boolean> {
  const rows = await db
    .select({ eventId: paymentEvents.eventId })
    .from(paymentEvents)
    .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, eventId)))
    .limit(1);
  return rows.length > 0;
}

/** Records a handled event; answers false when it was recorded already (a concurrent delivery of the same event). */
export async function recordEvent(db: Db, event: PaymentEvent): Promise<boolean> {
  const inserted = await db
    .insert(paymentEvents)
    .values({ provider: event.provider, eventId: event.eventId, type: event.type, orderId: event.orderId ?? null })
    .onConflictDoNothing()
    .returning({ eventId: paymentEvents.eventId });
  return inserted.length > 0;
}
