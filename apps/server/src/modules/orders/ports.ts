// What other modules may use of the orders module (the lint rule in eslint.config.js lets them import only this file).
export type { OrderAccess, OrdersService } from './service.ts';
export { accessOf, accountOrGuest, sessionIfSent } from './access.ts';
export { OrderNotPayable } from './payment-states.ts';
export type { OrderBackOffice } from './back-office.ts';
export type { OrderFigures } from './admin-store.ts';
export type { AdminAction } from './refunds.ts';
export type { OrderRefunds } from './refunds.ts';
export { KeyAlreadyRefunded } from './refunds.ts';
// The read model of sold lines (decision 033): a seller's sales page and score read it.
export { soldLines } from './schema.ts';
