import { useId, useState, type FormEvent } from 'react';
import { accountUiMessages, securityMessages } from '@keystore/contract/messages';
import { ApiError, messageOf } from '../../lib/api.ts';
import { closeAuthDialog } from '../../lib/auth-dialog.ts';
import { signIn } from '../../lib/session.ts';
import { useLoginWithTotp } from './api.ts';
import { CodeForm } from './code-form.tsx';
import { SignInAgain } from './setup-dialog.tsx';
import styles from './auth-modal.module.css';

/** The answers after which this sign-in cannot go on: the password step must be done again. */
const OVER: readonly string[] = [securityMessages.challengeExpired, securityMessages.challengeExhausted];

/**
 * A sign-in's second step (issue 30): the authenticator app's 6-digit code, or one of the recovery
 * codes shown when the app was set up. Five wrong codes end the sign-in; it then starts again.
 */
export function TotpDialog({ email, challenge }: { email: string; challenge: string }) {
  const login = useLoginWithTotp();
  const [usingRecovery, setUsingRecovery] = useState(false);
  const [over, setOver] = useState<string | null>(null);

  const finish = async (proof: { code: string } | { recoveryCode: string }) => {
    try {
      const session = await login.mutateAsync({ challenge, ...proof });
      signIn(session.token, session.user);
      closeAuthDialog();
    } catch (error) {
      if (error instanceof ApiError && OVER.includes(error.message)) setOver(error.message);
      throw error;
    }
  };

  if (over) return <SignInAgain email={email} why={over} />;
  return (
    <div className={styles.form}>
      {usingRecovery ? (
        <>
          <p className={styles.text}>Enter one of the recovery codes you saved when you set up the authenticator app. Each code works once.</p>
          <RecoveryCodeForm verify={(recoveryCode) => finish({ recoveryCode })} />
        </>
      ) : (
        <>
          <p className={styles.text}>{securityMessages.secondStepTotp}</p>
          <CodeForm verify={(code) => finish({ code })} clearOnError label="Authenticator code" />
        </>
      )}
      <div className={styles.links}>
        <button type="button" className={styles.link} onClick={() => setUsingRecovery(!usingRecovery)}>
          {usingRecovery ? 'Use the authenticator app instead' : 'Use a recovery code instead'}
        </button>
      </div>
    </div>
  );
}

/** One recovery code (`abcde-12345`, any case, dash or not) and Verify. */
function RecoveryCodeForm({ verify }: { verify: (code: string) => Promise<void> }) {
  const id = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.replace(/[^a-z0-9]/gi, '').length !== 10) return setError(securityMessages.codeWrong);
    setBusy(true);
    setError(null);
    try {
      await verify(code);
    } catch (failure) {
      setError(messageOf(failure, accountUiMessages.codeInvalid));
      setBusy(false);
    }
  };
  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <div className={styles.field}>
        <label htmlFor={id} className={styles.label}>
          Recovery code
        </label>
        <input
          id={id}
          className={styles.input}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="abcde-12345"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {error && (
          <p id={`${id}-error`} className={styles.error} role="alert">
            {error}
          </p>
        )}
      </div>
      <button type="submit" className={styles.primary} disabled={busy}>
        {busy ? 'Verifying…' : 'Verify'}
      </button>
    </form>
  );
}
