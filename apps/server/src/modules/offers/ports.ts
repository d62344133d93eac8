// What other modules may use of the offers module (eslint.config.js lets them import only this file):
// its service, the shapes its methods take and answer, and the house offer's id rule (decision 031).
export type { EndingLine, OffersService } from './service.ts';
export type { LineOnOffer, OrderRequestLine, PlacedLine, Reroute } from './placement.ts';
export type { FailedReservation, ProvideOutcome, Refusal } from './declared.ts';
export type { ReservationRow } from './reservations.ts';
export type { MarketOffer } from './store.ts';
// The read models of offers and reservations (decision 033): a seller's panel and score read them.
export { offerStock, reservationOutcomes } from './schema.ts';
export type { ShelfKey } from './shelf.ts';
