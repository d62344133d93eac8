// Accounts: sign-up with an e-mailed code, login with the new-device check, password recovery and
// sessions. User rows are reached only through UsersService; this module owns sessions, codes and
// trusted addresses.
import {
  accountMessages,
  adminMessages,
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
import { accountDeletedMail, newDeviceMail, passwordChangedMail, passwordResetMail, verificationMail } from '../../platform/mail/account-mails.ts';
import type { MailContext } from '../../platform/mail/layout.ts';
import type { Mailer } from '../../platform/mailer.ts';
import { hashPassword, passwordMatches } from '../../platform/passwords.ts';
import { keyedHasher, randomDigits, randomToken, sha256 } from '../../platform/tokens.ts';
import type { UserRow, UsersService } from '../users/ports.ts';
import { AccountCodes, type Consumed } from './codes.ts';
import type { LoginThrottle } from './limits.ts';
import { SessionService } from './sessions.ts';
import { isTrustedIp, trustIp } from './trusted-ips.ts';

/** Where a request comes from: the address the new-device check trusts, and the browser for the session list. */
export interface Device {
  ip: string;
  userAgent: string | undefined;
  /** The web app's browser id (`x-session-id`), kept with the session for the risk desk (issue 29). */
  browser?: string | undefined;
}

/** Stands for an unknown e-mail's account in lookups that must cost the same either way. */
const NO_ACCOUNT = '';

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

  constructor(
    database: Database,
    config: Config,
    users: UsersService,
    mailer: Mailer,
    { events, throttle }: { events?: StoreEventBus | undefined; throttle?: LoginThrottle | undefined } = {},
  ) {
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
   * Checks the password. Unknown e-mail and wrong password cost the same time and get the same
   * answer; from an address the account has not proved, a code is e-mailed instead of a session.
   * Guessing is throttled by the LoginThrottle (limits.ts): a run of wrong passwords from one
   * address earns doubling waits, and once an account is guessed at from unproved addresses, those
   * addresses get the new-device answer whatever the password, so they learn nothing.
   */
  async login(input: { email: string; password: string }, device: Device): Promise<LoginAnswer> {
    const { email } = input;
    await this.throttle?.admit(email, device.ip);
    const user = await this.users.findByEmail(email);
    // The same lookup for an unknown e-mail, so both take the same time.
    const proved = await isTrustedIp(this.database.db, user?.id ?? NO_ACCOUNT, device.ip);
    const hidden = !proved && (await this.throttle?.underAttack(email)) === true;
    const matches = await passwordMatches(user?.passwordHash, input.password);
    if (!user || !matches) {
      await this.throttle?.failed(email, device.ip, proved);
      if (hidden) return { twoFactorRequired: true, message: accountMessages.newDeviceCodeSent };
      throw new Unauthorized(accountMessages.invalidCredentials);
    }
    await this.throttle?.succeeded(email, device.ip);
    // Told only to the right password, so the answer gives nothing away to a guesser.
    assertNotBlocked(user);
    // Past the limit an unverified account answers like any other, or its answer would tell a right guess.
    if (!user.emailVerifiedAt) {
      if (hidden) return { twoFactorRequired: true, message: accountMessages.newDeviceCodeSent };
      throw new Forbidden(accountMessages.verifyEmailFirst);
    }
    if (!proved) {
      await this.sendNewDeviceCode(user, device.ip);
      this.events?.emit('new-device-login', { userId: user.id, ip: device.ip });
      return { twoFactorRequired: true, message: accountMessages.newDeviceCodeSent };
    }
    return this.openSession(user, device);
  }

  /** Checks the new-device code, trusts the address it was asked for, and signs the user in. */
  async verifyNewDevice(email: string, code: string, device: Device): Promise<Session> {
    const user = await this.users.findByEmail(email);
    if (!user) throw new Invalid(accountMessages.codeInvalid);
    const consumed = await this.codes.consume(user.id, 'new-device', code);
    if (!consumed.ok) throw new Invalid(codeMessages[consumed.reason]);
    await trustIp(this.database.db, user.id, consumed.ip ?? device.ip);
    return this.openSession(user, device);
  }

  /**
   * A new code for a login waiting on one. Without such a login (or for an unknown address) the
   * answer is the same and nothing is sent: a code is only ever asked for by the right password.
   */
  async resendNewDeviceCode(email: string): Promise<string> {
    const user = await this.users.findByEmail(email);
    const pending = user && (await this.codes.latest(user.id, 'new-device'));
    if (user && pending && !pending.usedAt && pending.ip) await this.sendNewDeviceCode(user, pending.ip);
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
  logout(sessionId: string): Promise<void> {
    return this.sessions.end(sessionId);
  }

  /** Ends every session of the user, or all but `except` (the device that changed the password). */
  endSessions(userId: string, options: { except?: string } = {}): Promise<void> {
    return this.sessions.endAll(userId, options);
  }

  /** Tells the owner their password was changed (after a reset or a change in the profile). */
  notifyPasswordChanged(user: { id: string; email: string; username: string }): Promise<void> {
    this.events?.emit('password-changed', { userId: user.id });
    return this.mailer.send(passwordChangedMail(this.mailContext, user));
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
