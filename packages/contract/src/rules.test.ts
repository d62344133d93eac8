import { describe, expect, it } from 'vitest';
import { membershipFor } from './constants.ts';
import { validationMessages as m } from './messages.ts';
import { registerRequestSchema, resetPasswordRequestSchema } from './accounts.ts';
import {
  avatarProblem,
  codeProblem,
  emailProblem,
  newPasswordProblem,
  normalizeEmail,
  passwordProblem,
  resetPasswordProblem,
  usernameProblem,
} from './rules.ts';

describe('the e-mail rule (SPEC §5)', () => {
  it('answers the first message that applies, in the order of the spec', () => {
    expect(emailProblem('')).toBe(m.emailRequired);
    expect(emailProblem('   ')).toBe(m.emailRequired);
    expect(emailProblem('player.example.org')).toBe(m.emailNeedsAt);
    expect(emailProblem('player@org')).toBe(m.emailFormat);
    expect(emailProblem('pla yer@gmail.com')).toBe(m.emailFormat);
    expect(emailProblem('player@unknown-shop.com')).toBe(m.emailProvider);
  });

  it('accepts recognized providers and listed suffixes, whatever the case', () => {
    for (const email of ['Player@Gmail.com', 'a@outlook.com', 'a@web.de', 'student@uni.edu', 'a@example.org', 'a@mod.gov.uk', 'a@firma.pl']) {
      expect(emailProblem(email), email).toBeUndefined();
    }
    expect(normalizeEmail('  Player@Gmail.COM ')).toBe('player@gmail.com');
  });
});

describe('the username rule (SPEC §5)', () => {
  it('checks length, first letter and characters', () => {
    expect(usernameProblem('ab')).toBe(m.usernameTooShort);
    expect(usernameProblem('a'.repeat(21))).toBe(m.usernameTooLong);
    expect(usernameProblem('9lives')).toBe(m.usernameStart);
    expect(usernameProblem('_hidden')).toBe(m.usernameStart);
    expect(usernameProblem('kate-smith')).toBe(m.usernameCharacters);
    expect(usernameProblem('Kate.Smith_99')).toBeUndefined();
  });

  it('refuses a reserved word alone or followed by _ or ., but not inside a longer word', () => {
    expect(usernameProblem('Admin')).toBe(m.usernameReserved('admin'));
    expect(usernameProblem('support_team')).toBe(m.usernameReserved('support'));
    expect(usernameProblem('root.user')).toBe(m.usernameReserved('root'));
    expect(usernameProblem('administrator')).toBe(m.usernameReserved('administrator'));
    expect(usernameProblem('mastermind')).toBeUndefined();
    expect(usernameProblem('rootbeer')).toBeUndefined();
  });

  it('refuses offensive terms, also disguised, without flagging innocent words', () => {
    expect(usernameProblem('fuckface')).toBe(m.usernameOffensive);
    expect(usernameProblem('b1tch')).toBe(m.usernameOffensive);
    for (const name of ['Scunthorpe', 'assassin', 'classic', 'shitake', 'cockpit_ace']) expect(usernameProblem(name), name).toBeUndefined();
  });
});

describe('the password rules', () => {
  it('sign-up: six characters and an uppercase letter', () => {
    expect(passwordProblem('Ab1')).toBe(m.passwordTooShort);
    expect(passwordProblem('abcdef')).toBe(m.passwordUppercase);
    expect(passwordProblem('Abcdef')).toBeUndefined();
    expect(passwordProblem('Äbcdef')).toBeUndefined();
  });

  it('a passphrase of 16 or more characters needs no uppercase letter (decision 017)', () => {
    expect(passwordProblem('correct horse battery staple')).toBeUndefined();
    expect(passwordProblem('sixteen chars ok')).toBeUndefined();
    expect(passwordProblem('fifteen chars!!')).toBe(m.passwordUppercase);
    expect(resetPasswordProblem('correct horse battery staple')).toBeUndefined();
    expect(resetPasswordProblem('fifteen chars!!')).toBe(m.resetPasswordRules);
    expect(newPasswordProblem('correct horse battery staple')).toBeUndefined();
    expect(newPasswordProblem('fifteen chars!!')).toBe(m.newPasswordUppercase);
  });

  it('reset and change use their own wording for the same rules', () => {
    expect(resetPasswordProblem('abc')).toBe(m.resetPasswordRules);
    expect(resetPasswordProblem('abcdefg')).toBe(m.resetPasswordRules);
    expect(newPasswordProblem('')).toBe(m.newPasswordRequired);
    expect(newPasswordProblem('Abc')).toBe(m.newPasswordTooShort);
    expect(newPasswordProblem('abcdefg')).toBe(m.newPasswordUppercase);
  });
});

describe('codes, avatars and tiers', () => {
  it('a code is exactly six digits', () => {
    expect(codeProblem('123456')).toBeUndefined();
    for (const code of ['12345', '1234567', '12a456', ' 123456']) expect(codeProblem(code)).toBe(m.codeIncomplete);
  });

  it('an avatar is an image of at most 5 MB', () => {
    expect(avatarProblem({ type: 'text/plain', size: 10 })).toBe(m.avatarNotImage);
    expect(avatarProblem({ type: 'image/png', size: 5_242_881 })).toBe(m.avatarTooLarge);
    expect(avatarProblem({ type: 'image/png', size: 5_242_880 })).toBeUndefined();
  });

  it('membership follows the tooltip thresholds', () => {
    expect([0, 99.99, 100, 250, 399.99, 400, 800, 5000].map(membershipFor)).toEqual([
      'Key Newb',
      'Key Newb',
      'Bundle Raider',
      'Loot Veteran',
      'Loot Veteran',
      'Deal Architect',
      'Cart King',
      'Cart King',
    ]);
  });
});

describe('the server-side schemas use the same rules', () => {
  it('answers the rule message and lowercases the e-mail', () => {
    const bad = registerRequestSchema.safeParse({ username: 'admin', email: 'A@gmail.com', password: 'Secret1' });
    expect(bad.error?.issues[0]?.message).toBe(m.usernameReserved('admin'));
    const good = registerRequestSchema.parse({ username: ' Kate ', email: 'Kate@Gmail.com', password: 'Secret1' });
    expect(good).toEqual({ username: 'Kate', email: 'kate@gmail.com', password: 'Secret1' });
    expect(registerRequestSchema.safeParse({ username: 'Kate', password: 'Secret1' }).error?.issues[0]?.message).toBe(m.emailRequired);
    expect(resetPasswordRequestSchema.safeParse({ email: 'a@b.org', token: 't', password: 'short' }).error?.issues[0]?.message).toBe(m.resetPasswordRules);
  });
});
