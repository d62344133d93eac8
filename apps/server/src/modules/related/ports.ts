// What other modules may use of the related module (eslint.config.js lets them import only this file).
export type { RelatedGames } from './service.ts';
