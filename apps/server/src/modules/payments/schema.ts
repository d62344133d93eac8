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
