// Accounts: sign-up with an e-mailed code, login with the new-device check, password recovery and
// sessions. User rows are reached only through UsersService; this module owns sessions, codes and
// trusted addresses.
import {
  accountMessages,
  adminMessages,
  securityMessages,
  CODE_LENGTH,
  CODE_TTL_MINUTES,
  RESET_TOKEN_TTL_MINUTES,
  validationMessages,
  type LoginAnswer,
  type Session,
} from '@keystore/contract';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { Conflict, Forbidden, Invalid, Unauthorized } from '../../platform/errors.ts';
import type { StoreEventBus } from '../../platform/events.ts';
import { accountDeletedMail, newDeviceMail, passwordResetMail, verificationMail } from '../../platform/mail/account-mails.ts';
import type { MailContext } from '../../platform/mail/layout.ts';
import type { Mailer } from '../../platform/mailer.ts';
import { hashPassword, passwordMatches } from '../../platform/passwords.ts';
import { keyedHasher, randomDigits, randomToken, sha256 } from '../../platform/tokens.ts';
import type { SecondFactors } from '../security/ports.ts';
import type { UserRow, UsersService } from '../users/ports.ts';
import { AccountCodes, type Consumed } from './codes.ts';
import type { LoginThrottle } from './limits.ts';
import { SessionService } from './sessions.ts';
import { isTrustedIp, trustIp } from './trusted-ips.ts';
import { maskedAddress } from '../../platform/client-ip.ts';
import type { Places } from '../../platform/geoip.ts';

/** Where a request comes from: the address the new-device check trusts, and the browser for the session list. */
export interface Device {
  ip: string;
  userAgent: string | undefined;
  /** The web app's browser id (`x-session-id`), kept with the session for the risk desk (issue 29). */
  browser?: string | undefined;
}

/** The API keys a seller's account holds (the sellers module): a sign-out everywhere or a block may delete them. */
export interface SellerKeys {
  /** Deletes every API key of the user's seller account; answers how many there were. */
  revokeAllOf(userId: string): Promise<number>;
}

export type { Places } from '../../platform/geoip.ts';

/** Stands for an unknown e-mail's account in lookups that must cost the same either way. */
const NO_ACCOUNT = '';

/** The answer that a code was e-mailed (a new device), also given as the decoy when guessing is hidden. */
const EMAIL_STEP: LoginAnswer = { twoFactorRequired: true, method: 'email', message: accountMessages.newDeviceCodeSent };

/** The answer that the authenticator app's code comes next, with the challenge it opens. */
function totpStep(challenge: string): LoginAnswer {
  return { twoFactorRequired: true, method: 'totp', message: securityMessages.secondStepTotp, challenge };
}

const codeMessages: Record<Exclude<Consumed, { ok: true }>['reason'], string> = {
  invalid: accountMessages.codeInvalid,
  expired: accountMessages.codeExpired,
  exhausted: accountMessages.codeAttemptsExhausted,
};

export class AuthService {
  readonly sessions: SessionService;
  private readonly codes: AccountCodes;
  private readonly mailContext: MailContext;
  private readonly database: Database;
  private readonly users: UsersService;
  private readonly mailer: Mailer;
  private readonly events: StoreEventBus | undefined;

  private readonly throttle: LoginThrottle | undefined;
  private readonly factors: SecondFactors;
  private readonly sellerKeys: SellerKeys | undefined;
  private readonly places: Places | undefined;

  constructor(
    database: Database,
    config: Config,
    users: UsersService,
    mailer: Mailer,
    factors: SecondFactors,
    {
      events,
      throttle,
      sellerKeys,
      places,
    }: { events?: StoreEventBus | undefined; throttle?: LoginThrottle | undefined; sellerKeys?: SellerKeys | undefined; places?: Places | undefined } = {},
  ) {
    this.factors = factors;
    this.sellerKeys = sellerKeys;
    this.places = places;
    this.events = events;
    this.throttle = throttle;
    this.database = database;
    this.users = users;
    this.mailer = mailer;
    this.sessions = new SessionService(database, config.secrets.jwt, config.secrets.jwtPrevious);
    // Codes are short (a million values): keyed hashes, so a copy of the table reveals none of them.
    // Reset tokens carry 256 random bits: a plain SHA-256 cannot be reversed.
    const codeHashes = keyedHasher([config.secrets.jwt, ...config.secrets.jwtPrevious], 'account-codes');
    this.codes = new AccountCodes(database.db, (purpose, secret) => (purpose === 'reset-password' ? [sha256(secret)] : codeHashes(secret)));
    this.mailContext = { publicUrl: config.publicUrl, supportEmail: config.mail.supportEmail };
  }

  async usernameAvailable(username: string): Promise<boolean> {
    return !(await this.users.isUsernameTaken(username));
  }

  async emailAvailable(email: string): Promise<boolean> {
    return !(await this.users.isEmailTaken(email));
  }

  /** Creates an unverified customer and e-mails the verification code and link. */
  async register(input: { username: string; email: string; password: string }): Promise<string> {
    // Cheap checks first, so a taken name costs no password hash; `create` still catches a race.
    if (await this.users.isEmailTaken(input.email)) throw new Conflict(validationMessages.emailTaken);
    if (await this.users.isUsernameTaken(input.username)) throw new Conflict(validationMessages.usernameTaken);
    const user = await this.users.create({ username: input.username, email: input.email, passwordHash: await hashPassword(input.password) });
    this.events?.emit('account-created', { userId: user.id });
    await this.sendVerificationCode(user);
    return accountMessages.registered;
  }

  /**
   * Verifies the e-mail with its code (from the dialog or the link) and trusts the address it was
   * done from. Opening the same link again answers success instead of a confusing error.
   */
  async verifyEmail(email: string, code: string, ip: string): Promise<string> {
    const user = await this.users.findByEmail(email);
    if (!user) throw new Invalid(accountMessages.codeInvalid);
    if (user.emailVerifiedAt) {
      if (await this.codes.wasUsed(user.id, 'verify-email', code)) return accountMessages.alreadyVerified;
      throw new Invalid(accountMessages.codeInvalid);
    }
    const consumed = await this.codes.consume(user.id, 'verify-email', code);
    if (!consumed.ok) throw new Invalid(codeMessages[consumed.reason]);
    await this.users.markEmailVerified(user.id);
    await trustIp(this.database.db, user.id, ip);
    await this.events?.publish('email-proved', { userId: user.id, email: user.email });
    return accountMessages.emailVerified;
  }

  /** A new verification code; an unknown or verified address gets the same answer and no mail. */
  async resendVerification(email: string): Promise<string> {
    const user = await this.users.findByEmail(email);
    if (user && !user.emailVerifiedAt) await this.sendVerificationCode(user);
    return accountMessages.verificationEmailResent;
  }

  /**
   * The password step of a sign-in. Unknown e-mail and wrong password cost the same time and get the
   * same answer; a right one leads to the next step (`stepAfterPassword`). Guessing is throttled by
   * the LoginThrottle (limits.ts): a run of wrong passwords from one address earns doubling waits,
   * and once an account is guessed at from unproved addresses, those addresses get the second-step
   * answer whatever the password (`decoyStep`), so they learn nothing.
   */
  async login(input: { email: string; password: string }, device: Device): Promise<LoginAnswer> {
    const { email } = input;
    await this.throttle?.admit(email, device.ip);
    const user = await this.users.findByEmail(email);
    // The same lookups for an unknown e-mail, so both take the same time.
    const [proved, factors] = await Promise.all([isTrustedIp(this.database.db, user?.id ?? NO_ACCOUNT, device.ip), this.factors.factorsOf(user?.id ?? NO_ACCOUNT)]);
    const hidden = !proved && (await this.throttle?.underAttack(email)) === true;
    const matches = await passwordMatches(user?.passwordHash, input.password);
    if (!user || !matches) {
      await this.throttle?.failed(email, device.ip, proved);
      if (hidden) return this.decoyStep(user, factors.totp, device);
      throw new Unauthorized(accountMessages.invalidCredentials);
    }
    await this.throttle?.succeeded(email, device.ip);
    // Told only to the right password, so the answer gives nothing away to a guesser.
    assertNotBlocked(user);
    // Past the limit an unverified account answers like any other, or its answer would tell a right guess.
    if (!user.emailVerifiedAt) {
      if (hidden) return EMAIL_STEP;
      throw new Forbidden(accountMessages.verifyEmailFirst);
    }
    return this.stepAfterPassword(user, device, { proved, factors });
  }

  /**
   * What follows a right password: the authenticator app's code when the account has one on (from
   * any address: it replaces the e-mailed code, and no mail is sent), else an e-mailed code from an
   * address the account has not proved, else the session.
   */
  private async stepAfterPassword(user: UserRow, device: Device, { proved, factors }: { proved: boolean; factors: { totp: boolean; passkeys: number } }): Promise<LoginAnswer> {
    if (factors.totp) return totpStep(await this.factors.openChallenge(user.id, 'totp', device));
    if (!proved) {
      await this.sendNewDeviceCode(user, device.ip);
      this.events?.emit('new-device-login', { userId: user.id, ip: device.ip });
      return EMAIL_STEP;
    }
    return this.sessionOrSetUp(user, device, factors);
  }

  /**
   * The session, unless the owner requires a second factor of this account (an admin, a seller) and it
   * has none: then setting one up comes first, with a challenge that opens only that (`method: 'setup'`).
   */
  private async sessionOrSetUp(user: UserRow, device: Device, factors?: { totp: boolean; passkeys: number }): Promise<LoginAnswer> {
    if (await this.factors.mustSetUp(user.id, user.role, factors ?? (await this.factors.factorsOf(user.id)))) {
      return { twoFactorRequired: true, method: 'setup', message: securityMessages.setupRequired, challenge: await this.factors.openChallenge(user.id, 'setup', device) };
    }
    return this.openSession(user, device);
  }

  /** A secret for the set-up a sign-in asks for (its `setup` challenge). */
  beginSetUp(challenge: string) {
    return this.factors.beginTotpForSignIn(challenge);
  }

  /** The authenticator app set up at a sign-in that asked for it: the recovery codes and the session. */
  async finishSetUp(challenge: string, code: string, device: Device): Promise<{ recoveryCodes: string[]; session: Session }> {
    const { userId, recoveryCodes } = await this.factors.enableTotpForSignIn(challenge, code, device);
    const user = await this.users.findById(userId);
    if (!user) throw new Invalid(securityMessages.challengeExpired);
    await trustIp(this.database.db, user.id, device.ip);
    return { recoveryCodes, session: await this.openSession(user, device) };
  }

  /**
   * The answer to a wrong password while guessing is hidden: the step the account would ask for, so
   * it cannot be told from a right one. For an account with the app on, a challenge stored like a
   * real one that no code opens.
   */
  private async decoyStep(user: UserRow | undefined, totp: boolean, device: Device): Promise<LoginAnswer> {
    if (user && totp) return totpStep(await this.factors.openChallenge(user.id, 'totp', device, false));
    return EMAIL_STEP;
  }

  /**
   * The second step with the authenticator app's code or a recovery code. Wrong codes are
   * throttled per account and address like passwords, and a challenge takes five.
   */
  async loginWithTotp(input: { challenge: string; code?: string | undefined; recoveryCode?: string | undefined }, device: Device): Promise<Session> {
    const holder = await this.factors.challengeHolder(input.challenge);
    // Every try is counted before its code is checked, so tries sent at once cannot pass the limit
    // together; a decoy's tries count only for this address, or a guesser could lock the owner out.
    if (holder.userId) await this.throttle?.secondStepTry(holder.userId, device.ip, { decoy: !holder.opens });
    const passed = await this.factors.passTotp(input.challenge, input);
    const user = await this.users.findById(passed.userId);
    if (!user) throw new Invalid(securityMessages.challengeExpired);
    return this.openSecondFactorSession(user, device, passed.recoveryCodeUsed);
  }

  /** The options of a passkey sign-in (the browser's list of this store's passkeys). */
  passkeyOptions(device: Device) {
    return this.factors.passkeyLoginOptions(device);
  }

  /** A sign-in with a passkey alone: it is two factors (the device and its lock), so no code follows. */
  async loginWithPasskey(input: { challengeId: string; credential: { id: string } }, device: Device): Promise<Session> {
    const user = await this.users.findById(await this.factors.passPasskeyLogin(input));
    if (!user) throw new Unauthorized(securityMessages.passkeyUnknown);
    return this.openSecondFactorSession(user, device, false);
  }

  /**
   * A session after a second factor: an address the account had not used becomes trusted, and the
   * owner is told by a security mail (no code was mailed); a recovery code's use is told too.
   */
  private async openSecondFactorSession(user: UserRow, device: Device, recoveryCodeUsed: boolean): Promise<Session> {
    assertNotBlocked(user);
    const known = await isTrustedIp(this.database.db, user.id, device.ip);
    if (!known) {
      await trustIp(this.database.db, user.id, device.ip);
      await this.factors.recordNow(user.id, 'new-device', device);
      this.events?.emit('new-device-login', { userId: user.id, ip: device.ip });
    }
    if (recoveryCodeUsed) await this.factors.recordNow(user.id, 'recovery-code-used', device);
    return this.openSession(user, device);
  }

  /** Checks the new-device code, trusts the address it was asked for, and signs the user in (or asks for the set-up first). */
  async verifyNewDevice(email: string, code: string, device: Device): Promise<LoginAnswer> {
    const user = await this.users.findByEmail(email);
    if (!user) throw new Invalid(accountMessages.codeInvalid);
    const consumed = await this.codes.consume(user.id, 'new-device', code);
    if (!consumed.ok) throw new Invalid(codeMessages[consumed.reason]);
    await trustIp(this.database.db, user.id, consumed.ip ?? device.ip);
    // A code mailed before the app was turned on (or a resend of one) opens no more than the password
    // does: an account with the app on gets its step, so the mailbox alone is never enough.
    const factors = await this.factors.factorsOf(user.id);
    if (factors.totp) return totpStep(await this.factors.openChallenge(user.id, 'totp', device));
    return this.sessionOrSetUp(user, device, factors);
  }

  /**
   * A new code for a login waiting on one. Without such a login (or for an unknown address) the
   * answer is the same and nothing is sent: a code is only ever asked for by the right password.
   */
  async resendNewDeviceCode(email: string): Promise<string> {
    const user = await this.users.findByEmail(email);
    const pending = user && (await this.codes.latest(user.id, 'new-device'));
    // The same lookup whatever the account; an account with the app on signs in with its code, never a mailed one.
    const { totp } = await this.factors.factorsOf(user?.id ?? NO_ACCOUNT);
    if (user && pending && !pending.usedAt && pending.ip && !totp) await this.sendNewDeviceCode(user, pending.ip);
    return accountMessages.codeResent;
  }

  /**
   * E-mails a reset link when the account exists; the answer never tells, not even by its time. Both
   * kinds of address do the same work before answering: a token and its hash, the mail written out,
   * and one transaction of the same statements, which store the link and its mail (the outbox) only
   * for an account. Writing the link after the answer instead left its work to slow whichever answer
   * came next (issue 22), and lost the link if the process stopped meanwhile.
   */
  async forgotPassword(email: string): Promise<string> {
    const user = await this.users.findByEmail(email);
    const token = randomToken();
    // For no account the same mail is written out, to be stored nowhere.
    const mail = passwordResetMail(this.mailContext, user ?? { email, username: email }, token);
    await this.database.db.transaction(async (tx) => {
      await this.codes.issueIf(tx, user !== undefined, user?.id ?? NO_ACCOUNT, 'reset-password', token, { ttlMinutes: RESET_TOKEN_TTL_MINUTES });
      await this.mailer.enqueueIf(tx, user !== undefined, mail);
    });
    this.mailer.flush();
    return accountMessages.recoveryEmailSent;
  }

  /**
   * Sets a new password with a reset token: every session of the account ends, and the e-mail
   * counts as verified (the link proved the owner reads it).
   */
  async resetPassword(input: { email: string; token: string; password: string }): Promise<string> {
    const user = await this.users.findByEmail(input.email);
    const consumed = user ? await this.codes.consume(user.id, 'reset-password', input.token) : undefined;
    if (!user || !consumed?.ok) throw new Invalid(accountMessages.resetLinkInvalid);
    await this.users.setPasswordHash(user.id, await hashPassword(input.password));
    if (!user.emailVerifiedAt) await this.users.markEmailVerified(user.id);
    await this.endSessions(user.id);
    await this.notifyPasswordChanged(user);
    return accountMessages.passwordChanged;
  }

  /** Ends the session of a token (logout). */
  async logout(userId: string, sessionId: string): Promise<void> {
    await this.sessions.end(userId, sessionId);
    this.events?.emit('sessions-ended', { userId });
  }

  /** Ends every session of the user, or all but `except` (the device that changed the password); their live streams end too. */
  async endSessions(userId: string, options: { except?: string } = {}): Promise<void> {
    await this.sessions.endAll(userId, options);
    this.events?.emit('sessions-ended', { userId });
  }

  /** Signs one of the user's devices out (the profile's list); false when it is not theirs or already out. */
  async endSession(userId: string, sessionId: string): Promise<boolean> {
    const ended = await this.sessions.end(userId, sessionId);
    if (ended) this.events?.emit('sessions-ended', { userId });
    return ended;
  }

  /**
   * Signs the account out everywhere and deletes its seller API keys (a block: nothing of the
   * account's may work on, not even a system's key). Answers how many API keys there were.
   */
  async shutOut(userId: string): Promise<number> {
    await this.endSessions(userId);
    return (await this.sellerKeys?.revokeAllOf(userId)) ?? 0;
  }

  /**
   * Signs every other device out, and deletes the seller's API keys when asked: the way back for an
   * owner who fears someone else is signed in.
   */
  async signOutEverywhereElse(userId: string, sessionId: string, device: Device, { revokeApiKeys }: { revokeApiKeys: boolean }): Promise<void> {
    await this.endSessions(userId, { except: sessionId });
    if (revokeApiKeys) await this.revokeSellerKeys(userId, device);
    await this.factors.recordNow(userId, 'sessions-revoked', device);
  }

  /** Deletes the account's seller API keys, asked by its owner (a sign-out everywhere, a password change); the owner is told. */
  async revokeSellerKeys(userId: string, device: Device): Promise<void> {
    if (this.sellerKeys && (await this.sellerKeys.revokeAllOf(userId)) > 0) await this.factors.recordNow(userId, 'api-key-deleted', device);
  }

  /** Where a session's address is, as the list of devices shows it: the GeoIP place, else the address masked. */
  placeOf(ip: string | null): string {
    return (ip && this.places?.placeOf(ip)) || maskedAddress(ip);
  }

  /** Tells the owner their password was changed (after a reset or a change in the profile): a security mail. */
  async notifyPasswordChanged(user: { id: string; email: string; username: string }, origin?: { ip: string; userAgent: string | undefined }): Promise<void> {
    this.events?.emit('password-changed', { userId: user.id });
    await this.factors.recordNow(user.id, 'password-changed', origin);
  }

  /** Tells the former owner their account was deleted (it may have been done with a stolen password). */
  notifyAccountDeleted(user: { email: string; username: string }): Promise<void> {
    return this.mailer.send(accountDeletedMail(this.mailContext, user));
  }

  private async openSession(user: UserRow, device: Device): Promise<Session> {
    assertNotBlocked(user);
    // Every session is opened for a verified e-mail: what a guest bought with it is the account's now.
    await this.events?.publish('email-proved', { userId: user.id, email: user.email });
    const token = await this.sessions.open(user.id, device);
    return { token, user: await this.users.profile(user) };
  }

  private async sendVerificationCode(user: UserRow): Promise<void> {
    const code = randomDigits(CODE_LENGTH);
    await this.codes.issue(user.id, 'verify-email', code, { ttlMinutes: CODE_TTL_MINUTES });
    await this.mailer.send(verificationMail(this.mailContext, user, code));
  }

  private async sendNewDeviceCode(user: UserRow, ip: string): Promise<void> {
    const code = randomDigits(CODE_LENGTH);
    await this.codes.issue(user.id, 'new-device', code, { ttlMinutes: CODE_TTL_MINUTES, ip });
    await this.mailer.send(newDeviceMail(this.mailContext, user, code, { ip, at: new Date() }));
  }
}

/** A blocked account (back office) signs in nowhere: a 403 that says so. */
function assertNotBlocked(user: Pick<UserRow, 'blockedAt'>): void {
  if (user.blockedAt) throw new Forbidden(adminMessages.accountBlocked);
}
