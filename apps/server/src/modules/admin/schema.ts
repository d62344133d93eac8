import { pgTable, text } from 'drizzle-orm/pg-core';
import { moment } from '../../db/columns.ts';

/** When the operators were last mailed about each cause (at most once an hour per cause). */
export const operatorAlerts = pgTable('operator_alerts', {
  cause: text('cause').primaryKey(),
  lastSentAt: moment('last_sent_at').notNull(),
});
