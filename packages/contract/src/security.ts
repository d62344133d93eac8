// Requests and answers of the second factors and signed-in devices (issue 30): the authenticator app
// (TOTP) with its recovery codes, passkeys (WebAuthn), and the list of sessions.
import { z } from 'zod';
import { sessionSchema } from './accounts.ts';
import { safeText } from './fields.ts';
import { validationMessages as m } from './messages.ts';
import { PASSKEY_NAME_MAX_LENGTH, securityMessages as s } from './security-rules.ts';

/** A password typed again to confirm a change: checked against the account, never against the rules. */
const typedPassword = safeText(m.passwordRequired).min(1, m.passwordRequired).max(1024, m.passwordTooLong);
/** An authenticator app's 6-digit code; spaces typed in the middle are dropped. */
const totpCode = safeText(s.codeRequired)
  .transform((code) => code.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, s.codeWrong));
/** A recovery code as printed (`abcde-12345`), in any case, with or without its dash. */
const recoveryCode = safeText(s.codeOrRecoveryRequired)
  .max(40, s.codeWrong)
  .transform((code) => code.toLowerCase().replace(/[^a-z0-9]/g, ''))
  .pipe(z.string().regex(/^[a-z0-9]{10}$/, s.codeWrong));
/** A sign-in's or a ceremony's challenge id, as the server handed it out. */
const challengeId = safeText(s.challengeExpired).regex(/^[A-Za-z0-9_-]{16,100}$/, s.challengeExpired);

export const passwordConfirmationSchema = z.object({ password: typedPassword });
/**
 * Who is asking, proved again before a change that outlives the session (a seller's API key, its
 * webhook): the password, and the authenticator app's code when the account has the app on.
 */
export const identityConfirmationFields = { password: typedPassword, code: totpCode.optional() };
export const identityConfirmationSchema = z.object(identityConfirmationFields);
export type IdentityConfirmation = z.input<typeof identityConfirmationSchema>;
export type PasswordConfirmation = z.input<typeof passwordConfirmationSchema>;

export const totpSetupSchema = z.object({ secret: z.string(), otpauthUri: z.string(), qrSvg: z.string() }).meta({ id: 'TotpSetup' });
export type TotpSetup = z.infer<typeof totpSetupSchema>;
export const totpCodeRequestSchema = z.object({ code: totpCode });
export type TotpCodeRequest = z.input<typeof totpCodeRequestSchema>;
export const passwordAndCodeRequestSchema = z.object({ password: typedPassword, code: totpCode });
export type PasswordAndCodeRequest = z.input<typeof passwordAndCodeRequestSchema>;
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()), message: z.string() }).meta({ id: 'RecoveryCodes' });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** The second step of a sign-in: the challenge the password step answered, and a code or a recovery code. */
export const totpLoginRequestSchema = z
  .object({ challenge: challengeId, code: totpCode.optional(), recoveryCode: recoveryCode.optional() })
  .refine((body) => (body.code === undefined) !== (body.recoveryCode === undefined), { message: s.codeOrRecoveryRequired, path: ['code'] });
export type TotpLoginRequest = z.input<typeof totpLoginRequestSchema>;

/** A sign-in whose account must set up a second factor first (`method: 'setup'`): its challenge, and the app's first code. */
export const setupChallengeRequestSchema = z.object({ challenge: challengeId });
export type SetupChallengeRequest = z.input<typeof setupChallengeRequestSchema>;
export const setupEnableRequestSchema = z.object({ challenge: challengeId, code: totpCode });
export type SetupEnableRequest = z.input<typeof setupEnableRequestSchema>;

export const passkeySchema = z
  .object({ _id: z.string(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() })
  .meta({ id: 'Passkey' });
export type Passkey = z.infer<typeof passkeySchema>;

/** What the profile's Security section shows: the second factors of the account. */
export const securityOverviewSchema = z
  .object({
    totp: z.boolean(),
    recoveryCodesLeft: z.number().int(),
    passkeys: z.array(passkeySchema),
    /** Whether the owner requires a second factor of this account's role (admins, sellers). */
    secondFactorRequired: z.boolean(),
  })
  .meta({ id: 'SecurityOverview' });
export type SecurityOverview = z.infer<typeof securityOverviewSchema>;

/** A WebAuthn ceremony's options as the browser library takes them, with the id of its single-use challenge. */
export const passkeyOptionsSchema = z
  .object({ challengeId: z.string(), options: z.record(z.string(), z.unknown()) })
  .meta({ id: 'PasskeyOptions' });
export type PasskeyOptions = z.infer<typeof passkeyOptionsSchema>;

const base64url = (max: number) => z.string().max(max).regex(/^[A-Za-z0-9_-]*$/, s.passkeyRefused);
/** A credential as the browser answers a WebAuthn ceremony (the JSON of @simplewebauthn/browser), bounded in size. */
const credentialJson = z.object({
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  // The browser's fields: base64url texts, the key's algorithm (a COSE number) and the transports.
  response: z.record(z.string().max(40), z.union([z.string().max(16_000), z.number().int(), z.array(z.string().max(40)).max(10)]), { error: s.passkeyRefused }),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional().default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});
export const passkeyRegistrationRequestSchema = z.object({
  challengeId,
  name: safeText(s.passkeyNameRequired).trim().min(1, s.passkeyNameRequired).max(PASSKEY_NAME_MAX_LENGTH, s.passkeyNameTooLong),
  credential: credentialJson,
});
export type PasskeyRegistrationRequest = z.input<typeof passkeyRegistrationRequestSchema>;
export const passkeyLoginRequestSchema = z.object({ challengeId, credential: credentialJson });
export type PasskeyLoginRequest = z.input<typeof passkeyLoginRequestSchema>;

export const signedInDeviceSchema = z
  .object({
    _id: z.string(),
    createdAt: z.string(),
    lastSeenAt: z.string(),
    browser: z.string(),
    os: z.string(),
    /** "Berlin, Germany" when a GeoIP database is configured, otherwise the address masked (`203.0.113.x`). */
    place: z.string(),
    current: z.boolean(),
  })
  .meta({ id: 'SignedInDevice' });
export type SignedInDevice = z.infer<typeof signedInDeviceSchema>;
export const signedInDevicesSchema = z.array(signedInDeviceSchema);
export const revokeOthersRequestSchema = z.object({ revokeApiKeys: z.boolean().optional().default(false) });
export type RevokeOthersRequest = z.input<typeof revokeOthersRequestSchema>;

/** The app turned on at sign-in: the recovery codes, shown once, and the session the sign-in opens. */
export const setupSignInSchema = z
  .object({ recoveryCodes: z.array(z.string()), message: z.string(), session: sessionSchema })
  .meta({ id: 'SetupSignIn' });
export type SetupSignIn = z.infer<typeof setupSignInSchema>;
