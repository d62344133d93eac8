// What other modules may use of the ledger (eslint.config.js lets them import only this file).
export { Ledger, toPayout, type Sale } from './service.ts';
// The read model of a seller's postings (decision 033): a seller's score counts its refunds.
export { sellerPostings } from './schema.ts';
