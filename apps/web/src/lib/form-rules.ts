import { validationMessages } from '@keystore/contract/messages';
import type { Problem } from '@keystore/contract/rules';
import { messageOf } from './api.ts';

/**
 * A rule of the contract as a react-hook-form validator: the form shows the rule's message, the same
 * one the server's schema answers. Every form of the store validates this way.
 */
export function byRule<Value>(rule: (value: Value) => Problem): (value: Value) => string | true {
  return (value) => rule(value) ?? true;
}

/**
 * Shows why the server refused a new password: the one rule only the server checks (a common
 * password) under the password field like the others, so Submit waits for a change; anything else
 * (or `fallback` when the server said nothing) in the form's alert.
 */
export function showPasswordRefusal(error: unknown, fallback: string, show: { underPassword(message: string): void; alert(message: string): void }): void {
  const message = messageOf(error, fallback);
  if (message === validationMessages.passwordCommon) show.underPassword(message);
  else show.alert(message);
}
