// What other modules may use of the claims module (eslint.config.js lets them import only this file).
export type { ClaimsService } from './service.ts';
