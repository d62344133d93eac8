// What other modules may use of the auth module (eslint.config.js lets them import only this file).
export { STREAM_TICKET_SECONDS } from './sessions.ts';
export type { AuthService } from './service.ts';
export { knownAddresses, knownBrowsers, untrustedSignIns } from './schema.ts';
