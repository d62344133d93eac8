// What other modules may use of the ledger (eslint.config.js lets them import only this file).
export { Ledger, toPayout, type Sale } from './service.ts';
