// What other modules may use of the notifications module (eslint.config.js lets them import only this file).
export type { NotificationsService } from './service.ts';
