// What other modules may use of the claims module (eslint.config.js lets them import only this file).
export type { ClaimsService } from './service.ts';
// The read model of claims' outcomes (decision 033): a seller's score reads it.
export { claimOutcomes } from './schema.ts';
