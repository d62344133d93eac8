// What other modules may use of the support module (eslint.config.js lets them import only this file).
export type { SupportService } from './service.ts';
