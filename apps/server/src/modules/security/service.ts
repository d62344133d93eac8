// Second factors (issue 30): the authenticator app with its recovery codes, passkeys, the challenges
// a sign-in's second step and a WebAuthn ceremony wait on, and the security events every change
// records and mails. The sign-in flow itself is the auth module's: it asks this one which step comes
// after the password and whether a step was passed, then opens the session.
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import {
  PASSKEYS_MAX,
  RECOVERY_CODE_COUNT,
  SECOND_STEP_ATTEMPTS,
  SIGN_IN_CHALLENGE_MINUTES,
  securityMessages as m,
  type PasskeyOptions,
  type Role,
  type SecurityEvent,
  type SecurityOverview,
  type TotpSetup,
} from '@keystore/contract';
import type { Config } from '../../config.ts';
import type { Database, Db } from '../../db/client.ts';
import { deviceText } from '../../platform/devices.ts';
import { Conflict, HttpError, Invalid, NotFound, Unauthorized } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { STORE_NAME, type MailContext } from '../../platform/mail/layout.ts';
import { securityEventMail } from '../../platform/mail/security-mails.ts';
import type { Mailer } from '../../platform/mailer.ts';
import { passwordMatches } from '../../platform/passwords.ts';
import { readSetting, writeSetting } from '../../platform/settings.ts';
import { keyedHasher, randomToken, sha256 } from '../../platform/tokens.ts';
import type { UsersService } from '../users/ports.ts';
import * as store from './store.ts';
import { newTotpSecret, totpEnrolment, totpStepOf } from './totp.ts';

/** Where a change or a sign-in comes from. */
export interface Origin {
  ip: string;
  userAgent: string | undefined;
}

/** Seals and opens secrets under the store's key ring (the library's vault), bound to a context. */
export interface Sealer {
  seal(text: string, context: string): string;
  unseal(stored: string, context: string): string;
}

/** An account as a security mail addresses it. */
interface Account {
  id: string;
  email: string;
  username: string;
  role: Role;
}

/** A sign-in's second step passed: whose, and whether a recovery code did it. */
export interface PassedStep {
  userId: string;
  recoveryCodeUsed: boolean;
  ip: string | null;
}

const CHALLENGE_MS = SIGN_IN_CHALLENGE_MINUTES * 60_000;
/** The owner's setting (store_settings): which accounts must have a second factor. */
const REQUIRED_SETTING = 'second-factor-required';

/** Which accounts the owner requires a second factor of (PATCH /api/admin/settings). */
export interface SecondFactorPolicy {
  admins: boolean;
  sellers: boolean;
}

export class SecurityService {
  private readonly database: Database;
  private readonly users: UsersService;
  private readonly sealer: Sealer;
  private readonly mailer: Mailer;
  private readonly mailContext: MailContext;
  private readonly recoveryHashes: (code: string) => string[];
  /** The WebAuthn relying party: PUBLIC_URL's host name and origin; a ceremony from elsewhere is refused. */
  private readonly rp: { id: string; origin: string; name: string };

  constructor(deps: { database: Database; config: Config; users: UsersService; sealer: Sealer; mailer: Mailer; mailContext: MailContext }) {
    this.database = deps.database;
    this.users = deps.users;
    this.sealer = deps.sealer;
    this.mailer = deps.mailer;
    this.mailContext = deps.mailContext;
    const { secrets, publicUrl } = deps.config;
    this.recoveryHashes = keyedHasher([secrets.jwt, ...secrets.jwtPrevious], 'recovery-codes');
    const url = new URL(publicUrl);
    this.rp = { id: url.hostname, origin: url.origin, name: STORE_NAME };
  }

  private get db() {
    return this.database.db;
  }

  /** What the profile's Security section shows. */
  async overview(userId: string, secondFactorRequired: boolean): Promise<SecurityOverview> {
    const [factors, left, keys] = await Promise.all([store.factorsOf(this.db, userId), store.recoveryCodesLeft(this.db, userId), store.passkeysOf(this.db, userId)]);
    return {
      totp: factors.totp,
      recoveryCodesLeft: factors.totp ? left : 0,
      passkeys: keys.map((key) => ({ _id: key.id, name: key.name, createdAt: key.createdAt.toISOString(), lastUsedAt: key.lastUsedAt?.toISOString() ?? null })),
      secondFactorRequired,
    };
  }

  /** The account's second factors, in one read: what the sign-in asks for after the password. */
  factorsOf(userId: string): Promise<{ totp: boolean; passkeys: number }> {
    return store.factorsOf(this.db, userId);
  }

  // --- the owner's policy ---

  async policy(db: Db = this.db): Promise<SecondFactorPolicy> {
    const value = (await readSetting(db, REQUIRED_SETTING)) as Partial<SecondFactorPolicy> | undefined;
    return { admins: value?.admins === true, sellers: value?.sellers === true };
  }

  async setPolicy(patch: Partial<SecondFactorPolicy>): Promise<SecondFactorPolicy> {
    const next = { ...(await this.policy()), ...Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) };
    await writeSetting(this.db, REQUIRED_SETTING, next);
    return next;
  }

  /** Whether the owner requires a second factor of this account: an admin, or a seller, when the policy says so. */
  async secondFactorRequired(userId: string, role: Role): Promise<boolean> {
    const policy = await this.policy();
    if (policy.admins && role === 'admin') return true;
    return policy.sellers && (await store.isSeller(this.db, userId));
  }

  /**
   * Whether a sign-in with the password must set up the authenticator app first: the owner requires a
   * second factor of this account, and the app is not on. A passkey does not count here: it signs in
   * alone (two factors) and never follows a password, so a password sign-in needs the app.
   */
  async mustSetUp(userId: string, role: Role, factors: { totp: boolean }): Promise<boolean> {
    if (factors.totp) return false;
    return this.secondFactorRequired(userId, role);
  }

  /** Refuses to turn the app off for an account the owner requires a second factor of (its password sign-ins need it). */
  private async assertAppNotRequired(userId: string): Promise<void> {
    const user = await this.account(userId);
    if (await this.secondFactorRequired(userId, user.role)) throw new Conflict(m.lastFactorRequired);
  }

  // --- a sign-in that must set up a factor first ---

  /** A secret for the set-up a sign-in's `setup` challenge asks for (the challenge stays waiting until the first code). */
  async beginTotpForSignIn(challenge: string): Promise<TotpSetup> {
    const waiting = await store.waitingChallenge(this.db, sha256(challenge), 'setup');
    if (!waiting?.userId) throw new Invalid(m.challengeExpired);
    const user = await this.account(waiting.userId);
    const secret = newTotpSecret();
    if (!(await store.savePendingTotp(this.db, user.id, this.sealer.seal(secret, store.totpSealContext(user.id))))) throw new Conflict(m.totpAlreadyOn);
    return { secret, ...(await totpEnrolment(secret, user.email, STORE_NAME)) };
  }

  /** Turns the app on with its first code and spends the sign-in's `setup` challenge: whose it was, and the recovery codes. */
  async enableTotpForSignIn(challenge: string, code: string, origin: Origin): Promise<{ userId: string; recoveryCodes: string[] }> {
    const waiting = await store.waitingChallenge(this.db, sha256(challenge), 'setup');
    if (!waiting?.userId) throw new Invalid(m.challengeExpired);
    const recoveryCodes = await this.enableTotp(waiting.userId, code, origin);
    if (!(await store.takeChallenge(this.db, sha256(challenge), 'setup', SECOND_STEP_ATTEMPTS))) throw new Invalid(m.challengeExpired);
    return { userId: waiting.userId, recoveryCodes };
  }

  // --- the authenticator app ---

  /** A new secret waiting for its first code (the password typed again first). Refused while an app is on. */
  async beginTotp(userId: string, password: string): Promise<TotpSetup> {
    const user = await this.confirmPassword(userId, password);
    const secret = newTotpSecret();
    if (!(await store.savePendingTotp(this.db, userId, this.sealer.seal(secret, store.totpSealContext(userId))))) throw new Conflict(m.totpAlreadyOn);
    return { secret, ...(await totpEnrolment(secret, user.email, STORE_NAME)) };
  }

  /** Turns the app on with its first code; answers the recovery codes, shown this once. */
  async enableTotp(userId: string, code: string, origin: Origin): Promise<string[]> {
    const pending = await store.totpOf(this.db, userId);
    if (pending?.enabledAt) throw new Conflict(m.totpAlreadyOn);
    if (!pending) throw new Invalid(m.totpSetupMissing);
    const step = await totpStepOf(this.sealer.unseal(pending.secretSealed, store.totpSealContext(userId)), code);
    if (step === undefined) throw new Invalid(m.codeWrong);
    const user = await this.account(userId);
    return this.db.transaction(async (tx) => {
      if (!(await store.takeTotpStep(tx, userId, step, true))) throw new Invalid(m.codeWrong);
      const codes = await this.replaceRecoveryCodes(tx, userId);
      await this.record(tx, user, 'totp-enabled', origin);
      return codes;
    }).finally(() => this.mailer.flush());
  }

  /** Turns the app off: the password and a current code, so neither a stolen session nor a stolen password alone can. */
  async disableTotp(userId: string, password: string, code: string, origin: Origin): Promise<void> {
    const user = await this.confirmPassword(userId, password);
    await this.assertAppNotRequired(userId);
    await this.db.transaction(async (tx) => {
      await this.takeCode(tx, userId, code);
      await store.deleteTotp(tx, userId);
      await this.record(tx, user, 'totp-disabled', origin);
    });
    this.mailer.flush();
  }

  /** Ten new recovery codes, the old ones void: the password and a current code. */
  async regenerateRecoveryCodes(userId: string, password: string, code: string, origin: Origin): Promise<string[]> {
    const user = await this.confirmPassword(userId, password);
    const codes = await this.db.transaction(async (tx) => {
      await this.takeCode(tx, userId, code);
      const fresh = await this.replaceRecoveryCodes(tx, userId);
      await this.record(tx, user, 'recovery-codes-regenerated', origin);
      return fresh;
    });
    this.mailer.flush();
    return codes;
  }

  /** Whether `code` is the account's current one, taking its time step (each code counts once). */
  async checkCode(userId: string, code: string): Promise<boolean> {
    const factor = await store.totpOf(this.db, userId);
    if (!factor?.enabledAt) return false;
    const step = await totpStepOf(this.sealer.unseal(factor.secretSealed, store.totpSealContext(userId)), code);
    return step !== undefined && (await store.takeTotpStep(this.db, userId, step));
  }

  private async takeCode(db: Db, userId: string, code: string): Promise<void> {
    const factor = await store.totpOf(db, userId);
    if (!factor?.enabledAt) throw new Conflict(m.totpNotOn);
    const step = await totpStepOf(this.sealer.unseal(factor.secretSealed, store.totpSealContext(userId)), code);
    if (step === undefined || !(await store.takeTotpStep(db, userId, step))) throw new Invalid(m.codeWrong);
  }

  private async replaceRecoveryCodes(db: Db, userId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
    await store.replaceRecoveryCodes(db, userId, codes.map((code) => this.recoveryHashes(normalRecoveryCode(code))[0]!));
    return codes;
  }

  // --- a sign-in's second step ---

  /**
   * A challenge for the second step of a sign-in, answered to the browser as an opaque token (only
   * its hash is kept). `opens: false` makes the decoy a wrong password gets: the same work, the same
   * answer, and no code will ever open it.
   */
  async openChallenge(userId: string | null, purpose: store.ChallengePurpose, origin: { ip: string }, opens = true, webauthnChallenge?: string): Promise<string> {
    const token = randomToken();
    await store.insertChallenge(this.db, { idHash: sha256(token), userId, purpose, opens, ip: origin.ip, webauthnChallenge, expiresAt: new Date(Date.now() + CHALLENGE_MS) });
    return token;
  }

  /** The account a waiting second-step challenge is for, and whether it is a decoy (to throttle before checking); refused when it is over. */
  async challengeHolder(token: string): Promise<{ userId: string | null; opens: boolean }> {
    const challenge = await store.waitingChallenge(this.db, sha256(token), 'totp');
    if (!challenge) throw new Invalid(m.challengeExpired);
    if (challenge.attempts >= SECOND_STEP_ATTEMPTS) throw new Invalid(m.challengeExhausted);
    return { userId: challenge.userId, opens: challenge.opens };
  }

  /**
   * Passes the second step with the app's code or a recovery code. A wrong one counts against the
   * challenge (5, then the sign-in starts again); a right one uses the challenge and the code once.
   */
  async passTotp(token: string, proof: { code?: string | undefined; recoveryCode?: string | undefined }): Promise<PassedStep> {
    const idHash = sha256(token);
    // The try is taken before the code is checked: five at once take five tries, not one each.
    const challenge = await store.takeTry(this.db, idHash, 'totp', SECOND_STEP_ATTEMPTS);
    if (!challenge) {
      const waiting = await store.waitingChallenge(this.db, idHash, 'totp');
      throw new Invalid(waiting ? m.challengeExhausted : m.challengeExpired);
    }
    const { userId } = challenge;
    // A decoy's code is checked like any other (the same work), and still opens nothing.
    let passed = false;
    if (userId !== null && proof.code !== undefined) passed = (await this.checkCode(userId, proof.code)) && challenge.opens;
    else if (userId !== null) passed = (await store.useRecoveryCode(this.db, userId, this.recoveryHashes(normalRecoveryCode(proof.recoveryCode ?? '')))) && challenge.opens;
    if (!passed || userId === null) throw new Invalid(challenge.attempts >= SECOND_STEP_ATTEMPTS ? m.challengeExhausted : m.codeWrong);
    if (!(await store.takeChallenge(this.db, idHash, 'totp', SECOND_STEP_ATTEMPTS))) throw new Invalid(m.challengeExpired);
    return { userId, recoveryCodeUsed: proof.code === undefined, ip: challenge.ip };
  }

  // --- passkeys ---

  /** The options to create a passkey (the password typed again first), bound to a single-use challenge. */
  async passkeyRegistrationOptions(userId: string, identity: { password: string; code?: string | undefined }, origin: Origin): Promise<PasskeyOptions> {
    // A passkey signs in alone: adding one asks what turning the app off asks (the password, and the app's code when on).
    await this.confirmIdentity(userId, identity);
    const user = await this.account(userId);
    const existing = await store.passkeysOf(this.db, userId);
    if (existing.length >= PASSKEYS_MAX) throw new Conflict(m.tooManyPasskeys);
    const options = await generateRegistrationOptions({
      rpName: this.rp.name,
      rpID: this.rp.id,
      userName: user.email,
      userDisplayName: user.username,
      userID: new TextEncoder().encode(userId),
      attestationType: 'none',
      excludeCredentials: existing.map((key) => ({ id: key.credentialId, transports: key.transports })),
      // A discoverable credential, verified by the device's own lock: it signs in alone, as two factors.
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const challengeId = await this.openChallenge(userId, 'passkey-register', origin, true, options.challenge);
    return { challengeId, options: options as unknown as Record<string, unknown> };
  }

  /** Stores the passkey the browser made with those options. */
  async registerPasskey(userId: string, input: { challengeId: string; name: string; credential: unknown }, origin: Origin): Promise<void> {
    const challenge = await store.takeChallenge(this.db, sha256(input.challengeId), 'passkey-register', 1);
    if (!challenge || challenge.userId !== userId || !challenge.webauthnChallenge) throw new Invalid(m.challengeExpired);
    const verification = await verifyRegistrationResponse({
      response: input.credential as RegistrationResponseJSON,
      expectedChallenge: challenge.webauthnChallenge,
      expectedOrigin: this.rp.origin,
      expectedRPID: this.rp.id,
      requireUserVerification: true,
    }).catch(() => undefined);
    if (!verification?.verified) throw new Invalid(m.passkeyRefused);
    const { credential } = verification.registrationInfo;
    const user = await this.account(userId);
    await this.db.transaction(async (tx) => {
      await store.insertPasskey(tx, {
        id: newId(),
        userId,
        credentialId: credential.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name: input.name,
      });
      await this.record(tx, user, 'passkey-added', origin);
    });
    this.mailer.flush();
  }

  async removePasskey(userId: string, id: string, origin: Origin): Promise<void> {
    const user = await this.account(userId);
    await this.db.transaction(async (tx) => {
      if (!(await store.deletePasskey(tx, userId, id))) throw new NotFound(m.passkeyNotFound);
      await this.record(tx, user, 'passkey-removed', origin);
    });
    this.mailer.flush();
  }

  /** The options of a passkey sign-in: any of this store's passkeys may answer (a discoverable credential). */
  async passkeyLoginOptions(origin: Origin): Promise<PasskeyOptions> {
    const options = await generateAuthenticationOptions({ rpID: this.rp.id, userVerification: 'required' });
    const challengeId = await this.openChallenge(null, 'passkey-login', origin, true, options.challenge);
    return { challengeId, options: options as unknown as Record<string, unknown> };
  }

  /** The account whose passkey signed this challenge, verified on this store's origin, the challenge used once. */
  async passPasskeyLogin(input: { challengeId: string; credential: { id: string } }): Promise<string> {
    const challenge = await store.takeChallenge(this.db, sha256(input.challengeId), 'passkey-login', 1);
    if (!challenge?.webauthnChallenge) throw new Invalid(m.challengeExpired);
    const key = await store.passkeyByCredential(this.db, input.credential.id);
    if (!key) throw new Unauthorized(m.passkeyUnknown);
    const verification = await verifyAuthenticationResponse({
      response: input.credential as AuthenticationResponseJSON,
      expectedChallenge: challenge.webauthnChallenge,
      expectedOrigin: this.rp.origin,
      expectedRPID: this.rp.id,
      credential: { id: key.credentialId, publicKey: isoBase64URL.toBuffer(key.publicKey), counter: key.counter, transports: key.transports as never },
      requireUserVerification: true,
    }).catch(() => undefined);
    if (!verification?.verified) throw new Unauthorized(m.passkeyRefused);
    await store.passkeyUsed(this.db, key.id, verification.authenticationInfo.newCounter);
    return key.userId;
  }

  // --- events ---

  /**
   * Records a security change of the account and mails its owner, in `db`'s transaction (the mail
   * through the outbox): the change and its notice commit together. The caller flushes the mailer.
   */
  async record(db: Db, user: Account, kind: SecurityEvent, origin: Partial<Origin> | undefined): Promise<void> {
    const ip = origin?.ip ?? null;
    await store.insertSecurityEvent(db, { userId: user.id, kind, ip, userAgent: origin?.userAgent?.slice(0, 500) ?? null });
    await this.mailer.enqueue(db, securityEventMail(this.mailContext, user, kind, { ip, device: origin?.userAgent ? deviceText(origin.userAgent) : null, at: new Date() }));
  }

  /** `record` in a transaction of its own, the mail sent at once. */
  async recordNow(userId: string, kind: SecurityEvent, origin: Partial<Origin> | undefined): Promise<void> {
    // Read before the transaction: on the embedded database a read outside it would wait for it to end.
    const user = await this.users.findById(userId);
    if (!user) return;
    await this.db.transaction((tx) => this.record(tx, user, kind, origin));
    this.mailer.flush();
  }

  /** Forgets challenges long expired (a job on every instance; deleting twice is harmless). */
  sweepChallenges(): Promise<void> {
    return store.deleteOldChallenges(this.db);
  }

  private async account(userId: string): Promise<Account> {
    const user = await this.users.findById(userId);
    if (!user) throw new Unauthorized(m.passwordWrong);
    return user;
  }

  /**
   * Proves the caller again before a change that outlives the session (a seller's API key, its
   * webhook): the password, and a current code of the authenticator app when it is on.
   */
  async confirmIdentity(userId: string, { password, code }: { password: string; code?: string | undefined }): Promise<void> {
    await this.confirmPassword(userId, password);
    const { totp } = await store.factorsOf(this.db, userId);
    if (!totp) return;
    if (code === undefined) throw new Invalid(m.codeRequired);
    if (!(await this.checkCode(userId, code))) throw new Invalid(m.codeWrong);
  }

  /** The account after its password was typed again; refused with the profile's message when wrong. */
  async confirmPassword(userId: string, password: string) {
    const user = await this.users.findById(userId);
    if (!user) throw new Unauthorized(m.passwordWrong);
    if (!(await passwordMatches(user.passwordHash, password))) throw new HttpError(400, m.passwordWrong);
    return user;
  }
}

/** A new recovery code, `abcde-12345`: ten random characters of a–z and 0–9 (about 51 bits). */
function recoveryCode(): string {
  const code = newId(10);
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** A recovery code as it is hashed: lowercase, without its dash. */
function normalRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, '');
}
