import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validationMessages as v } from '@keystore/contract';
import { COMMON_PASSWORD_COUNT, commonPasswordProblem, refusingCommon } from './common-passwords.ts';

describe('the common-password rule (decision 017)', () => {
  it('refuses the most common passwords whatever their case', () => {
    for (const password of ['123456', 'password', 'Password1', 'PASSWORD1', 'qWeRtY123', 'Iloveyou1', 'Trustno1']) {
      expect(commonPasswordProblem(password), password).toBe(v.passwordCommon);
    }
  });

  it('refuses a list entry of 16 characters, which the uppercase rule lets through as a passphrase', () => {
    // The only entry of 16 or more among the first 10 000 (a Russian obscenity, transliterated).
    expect(commonPasswordProblem('polniypizdec0211')).toBe(v.passwordCommon);
  });

  it('lets other passwords through, and stops at the first 10 000 entries', () => {
    expect(COMMON_PASSWORD_COUNT).toBe(10_000);
    for (const password of ['correct horse battery staple', 'Secret123', 'Brand-New9', 'Owner1234']) {
      expect(commonPasswordProblem(password), password).toBeUndefined();
    }
    // Entries 10 001 and on of the ranked list are rare enough to allow.
    expect(commonPasswordProblem('passwordpassword')).toBeUndefined();
  });

  it('runs after the field’s own rules, so their message comes first', () => {
    const field = refusingCommon(z.string().min(10, 'too short'));
    expect(field.safeParse('password').error?.issues[0]?.message).toBe('too short');
    expect(field.safeParse('Password123').error?.issues.map((issue) => issue.message)).toEqual([v.passwordCommon]);
    expect(field.safeParse('Unusual-Secret9').success).toBe(true);
  });
});
