// What other modules may use of the seller-delivery module (eslint.config.js lets them import only this file).
export type { ProvideOutcome, SellerDelivery } from './service.ts';
export type { ReservationRow } from './store.ts';
export { deliverLineReservations, endLineReservations, failedOffersOfLine, openReservationsOfLines, reserveDeclared, sealedWebhookSecrets } from './store.ts';
