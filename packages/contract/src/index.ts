// The contract's public surface: every schema, rule, message and constant both apps share.
export * from './constants.ts';
export * from './messages.ts';
export * from './catalog.ts';
export * from './catalog-rules.ts';
export * from './health.ts';
export * from './rules.ts';
export * from './text-rules.ts';
export * from './fields.ts';
export * from './email-domains.ts';
export * from './accounts.ts';
export * from './payment-rules.ts';
export * from './orders.ts';
export * from './support-rules.ts';
export * from './support.ts';
export * from './notifications.ts';
export * from './news.ts';
