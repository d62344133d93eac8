import { sql } from 'drizzle-orm';
import { pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import type { PaymentProviderName } from '@keystore/contract';
import { moment } from '../../db/columns.ts';

/** Payment provider events already handled (webhook idempotency): the same event twice changes nothing. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').$type<PaymentProviderName>().notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    orderId: text('order_id'),
    receivedAt: moment('received_at').notNull().default(sql`now()`),
  },
  (table) => [primaryKey({ columns: [table.provider, table.eventId] })],
);

/**
 * The test gateway's disputed card (4000 0000 0000 0259, issue 29): its payments are disputed a few
 * seconds later, as Stripe's test card is. A row waits here until the job of any instance takes it.
 */
export const testGatewayDisputes = pgTable('test_gateway_disputes', {
  orderId: text('order_id').primaryKey(),
  dueAt: moment('due_at').notNull(),
});
