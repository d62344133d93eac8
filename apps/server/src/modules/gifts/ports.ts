// What other modules may use of the gifts module (eslint.config.js lets them import only this file).
export type { GiftsService, NewGift } from './service.ts';
