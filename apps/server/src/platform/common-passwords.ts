// The most common passwords, refused wherever a password is chosen (decision 017). Only the
// server holds the list: in the web app it would add about 40 KB gzip for a check the server makes anyway.
import { dictionary } from '@zxcvbn-ts/language-common';
import type { z } from 'zod';
import { validationMessages, type Problem } from '@keystore/contract';

/**
 * How many entries of the list are refused. zxcvbn-ts ships the xato.net ten-million-password set
 * ranked by frequency (its first 10 000 are SecLists' 10k-most-common); the rarer tail is left out.
 */
export const COMMON_PASSWORD_COUNT = 10_000;

let common: ReadonlySet<string> | undefined;

/** The common-password rule, in the manner of the contract's rules: its message, or undefined. Case does not matter. */
export function commonPasswordProblem(password: string): Problem {
  // Built once, on first use: a few milliseconds.
  common ??= new Set(dictionary['passwords-common'].slice(0, COMMON_PASSWORD_COUNT));
  return common.has(password.toLowerCase()) ? validationMessages.passwordCommon : undefined;
}

/**
 * A contract password field that also refuses the common passwords. It runs after the field's own
 * rules, so a password that breaks SPEC §5 gets SPEC's message first.
 */
export function refusingCommon(field: z.ZodString): z.ZodString {
  return field.superRefine((password, context) => {
    const problem = commonPasswordProblem(password);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });
}
