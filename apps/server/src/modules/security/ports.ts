// What other modules may use of the security module (eslint.config.js lets them import only this file).
import type { SecurityService } from './service.ts';

export type { Origin, SecondFactorPolicy, SecurityService } from './service.ts';
export { securityChanges } from './schema.ts';
export { sealedTotpSecrets } from './store.ts';

/** The second factors as the sign-in flow (the auth module) asks them. */
export type SecondFactors = Pick<
  SecurityService,
  'factorsOf' | 'openChallenge' | 'challengeHolder' | 'passTotp' | 'passkeyLoginOptions' | 'passPasskeyLogin' | 'recordNow' | 'mustSetUp' | 'enableTotpForSignIn' | 'beginTotpForSignIn'
>;

/** What a module asks before a change that outlives the session, and how it tells the owner of one. */
export type IdentityChecks = Pick<SecurityService, 'confirmIdentity' | 'recordNow'>;
