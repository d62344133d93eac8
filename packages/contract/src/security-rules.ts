// Second factors and signed-in devices (issue 30): constants and the texts the server answers and
// the profile's Security section and the login dialog show. Zod-free, so any chunk may import it.

/** How many recovery codes an account holds at once, each good for one sign-in. */
export const RECOVERY_CODE_COUNT = 10;
/** Wrong codes a sign-in challenge takes before the sign-in must start again. */
export const SECOND_STEP_ATTEMPTS = 5;
/** How long the second step of a sign-in (a code, a passkey) may wait after the password. */
export const SIGN_IN_CHALLENGE_MINUTES = 5;
/** The longest name a passkey may be given. */
export const PASSKEY_NAME_MAX_LENGTH = 60;
/** How many passkeys one account may register. */
export const PASSKEYS_MAX = 10;

/** The second steps a sign-in may ask for: the e-mailed code (a new device), an authenticator app's code, or setting one up first. */
export const SECOND_STEP_METHODS = ['email', 'totp', 'setup'] as const;
export type SecondStepMethod = (typeof SECOND_STEP_METHODS)[number];

/** The security changes an account is told of by e-mail (and the risk desk counts). */
export const SECURITY_EVENTS = [
  'new-device',
  'password-changed',
  'totp-enabled',
  'totp-disabled',
  'passkey-added',
  'passkey-removed',
  'recovery-code-used',
  'recovery-codes-regenerated',
  'api-key-created',
  'api-key-deleted',
  'webhook-changed',
  'webhook-secret-rotated',
  'sessions-revoked',
] as const;
export type SecurityEvent = (typeof SECURITY_EVENTS)[number];

// The texts live with the other messages (messages.ts), which the dialogs and the profile load anyway.
export { securityMessages } from './messages.ts';

/** The subject of each security mail, by event. */
export const securityEventTitles: Record<SecurityEvent, string> = {
  'new-device': 'New sign-in to your account',
  'password-changed': 'Your password was changed',
  'totp-enabled': 'Authenticator app turned on',
  'totp-disabled': 'Authenticator app turned off',
  'passkey-added': 'A passkey was added',
  'passkey-removed': 'A passkey was removed',
  'recovery-code-used': 'A recovery code was used to sign in',
  'recovery-codes-regenerated': 'New recovery codes were made',
  'api-key-created': 'A seller API key was created',
  'api-key-deleted': 'A seller API key was deleted',
  'webhook-changed': 'Your seller webhook was changed',
  'webhook-secret-rotated': 'Your seller webhook secret was rotated',
  'sessions-revoked': 'Devices were signed out of your account',
};
