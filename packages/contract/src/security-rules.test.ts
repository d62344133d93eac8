import { describe, expect, it } from 'vitest';
import { PASSKEY_NAME_MAX_LENGTH, PASSKEYS_MAX, securityMessages } from './security-rules.ts';

describe('the security texts', () => {
  // Written out in messages.ts (the first views' chunks must not load the rules for them): they must say the rules' numbers.
  it('name the limits the rules set', () => {
    expect(securityMessages.passkeyNameTooLong).toContain(` ${PASSKEY_NAME_MAX_LENGTH} `);
    expect(securityMessages.tooManyPasskeys).toContain(` ${PASSKEYS_MAX} `);
  });
});
