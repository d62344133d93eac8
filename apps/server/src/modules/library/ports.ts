// What other modules may use of the library module (eslint.config.js lets them import only this file).
export type { DeliveredKey, LibraryService, SentGift } from './service.ts';
export type { VoidedKey } from './store.ts';
