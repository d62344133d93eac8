import { useId } from 'react';
import type { IdentityConfirmation } from '@keystore/contract';
import styles from './seller.module.css';

/** The password (and the authenticator code) typed again, as a change that outlives the session asks (issue 30). */
export type Identity = IdentityConfirmation;

export const NO_IDENTITY: Identity = { password: '', code: '' };

/** What is sent: the code only when one was typed (an account without the app has none). */
export function identityToSend({ password, code }: Identity): Identity {
  const digits = code?.replace(/\s+/g, '') ?? '';
  return digits ? { password, code: digits } : { password };
}

/**
 * "Your password" and "Authenticator code": asked before an API key is made or the webhook changed,
 * so a stolen session alone cannot hand the store's calls or a key to someone else.
 */
export function IdentityFields({ value, onChange }: { value: Identity; onChange: (identity: Identity) => void }) {
  const id = useId();
  return (
    <>
      <div className={styles.field}>
        <label htmlFor={`${id}-password`}>Your password</label>
        <input
          id={`${id}-password`}
          type="password"
          autoComplete="current-password"
          value={value.password}
          onChange={(event) => onChange({ ...value, password: event.target.value })}
        />
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-code`}>Authenticator code (if you turned the app on)</label>
        <input
          id={`${id}-code`}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          value={value.code ?? ''}
          onChange={(event) => onChange({ ...value, code: event.target.value })}
        />
      </div>
    </>
  );
}
