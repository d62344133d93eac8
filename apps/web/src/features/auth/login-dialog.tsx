import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { accountMessages, accountUiMessages, securityMessages, validationMessages } from '@keystore/contract/messages';
import type { Session } from '@keystore/contract';
import { emailProblem, normalizeEmail } from '@keystore/contract/rules';
import { byRule } from '../../lib/form-rules.ts';
import { openAuthDialog, closeAuthDialog, type PendingCheckout } from '../../lib/auth-dialog.ts';
import { ApiError } from '../../lib/api.ts';
import { signIn } from '../../lib/session.ts';
import { showToast } from '../../ui/toasts.tsx';
import { useLogin, useResendVerification } from './api.ts';
import { cancelPasskeyRequest, passkeyRequestEnded, passkeysSupported, signInWithPasskey } from './passkey-sign-in.ts';
import { continueSignIn } from './setup-dialog.tsx';
import { TextField } from './text-field.tsx';
import styles from './auth-modal.module.css';

/** Signs in with the session a passkey opened (none: the browser offered no passkey). */
function signedInWithPasskey(session: Session | undefined): void {
  if (!session) return;
  signIn(session.token, session.user);
  closeAuthDialog();
}

interface LoginValues {
  email: string;
  password: string;
}

/**
 * The login dialog (SPEC §2, §4, §8): e-mail checked while typing, then sign-in, the new-device check or
 * the verify notice. Opened by a purchase (`checkout`), it also offers to continue as a guest (issue 29).
 */
export function LoginDialog({ email = '', checkout }: { email?: string; checkout?: PendingCheckout }) {
  const { register, handleSubmit, setError, getValues, formState } = useForm<LoginValues>({ mode: 'onChange', defaultValues: { email, password: '' } });
  const { errors, isSubmitting } = formState;
  /** The e-mail the server says is not verified yet: the notice replaces the password error. */
  const [unverified, setUnverified] = useState<string | null>(null);
  const login = useLogin();
  const resendVerification = useResendVerification();

  const submit = handleSubmit(async ({ email, password }) => {
    setUnverified(null);
    try {
      continueSignIn(await login.mutateAsync({ email, password }), normalizeEmail(email), closeAuthDialog);
    } catch (error) {
      if (error instanceof ApiError && error.message === accountMessages.verifyEmailFirst) setUnverified(normalizeEmail(email));
      else setError('password', { message: accountMessages.invalidCredentials });
    }
  });

  const resend = (address: string) =>
    resendVerification.mutate(address, {
      onSuccess: () => {
        showToast(accountMessages.verificationEmailResent);
        openAuthDialog('confirm', { email: address });
      },
      onError: () => showToast(accountUiMessages.resendVerificationFailed, 'error'),
    });
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  const passkeys = passkeysSupported();
  // Where the browser can, its passkeys are offered among the e-mail field's suggestions (conditional UI).
  useEffect(() => {
    if (!passkeys) return undefined;
    let live = true;
    signInWithPasskey({ autofill: true, live: () => live }).then(signedInWithPasskey, (error: unknown) => {
      // A passkey picked from the suggestions that the store refuses (unknown, expired) is told; the browser's own
      // refusals (dismissed, no passkeys here, a store not on a domain name) are not: the field still works as before.
      if (live && error instanceof ApiError && error.fromServer && (error.status === 400 || error.status === 401)) setPasskeyError(error.message);
    });
    return () => {
      live = false;
      cancelPasskeyRequest();
    };
  }, [passkeys]);
  const signInWithAPasskey = async () => {
    setPasskeyError(null);
    setPasskeyBusy(true);
    try {
      signedInWithPasskey(await signInWithPasskey());
    } catch (error) {
      // The person closed the browser's prompt: nothing to say.
      if (passkeyRequestEnded(error)) return;
      setPasskeyError(error instanceof ApiError && error.fromServer ? error.message : securityMessages.passkeyRefused);
    } finally {
      setPasskeyBusy(false);
    }
  };

  // Still busy once sent: the code dialog is opening.
  const resending = resendVerification.isPending || resendVerification.isSuccess;

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <TextField
        label="Email"
        type="email"
        autoComplete={passkeys ? 'email webauthn' : 'email'}
        registration={register('email', { validate: byRule(emailProblem) })}
        error={errors.email?.message}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        registration={register('password', { required: validationMessages.passwordRequired })}
        error={errors.password?.message}
      />
      {unverified && (
        <div className={styles.notice} role="alert">
          <p>{accountMessages.verifyEmailFirst}</p>
          <div className={styles.links}>
            <button type="button" className={styles.link} disabled={resending} onClick={() => resend(unverified)}>
              Resend verification email?
            </button>
            <button type="button" className={styles.link} onClick={() => openAuthDialog('confirm', { email: unverified })}>
              I have a code
            </button>
          </div>
        </div>
      )}
      <button type="submit" className={styles.primary} disabled={isSubmitting}>
        {isSubmitting ? 'Logging in…' : 'Login'}
      </button>
      {passkeys && (
        <>
          <button type="button" className={styles.secondary} disabled={passkeyBusy} onClick={() => void signInWithAPasskey()}>
            {passkeyBusy ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
          </button>
          {passkeyError && (
            <p className={`${styles.error} ${styles.center}`} role="alert">
              {passkeyError}
            </p>
          )}
        </>
      )}
      <div className={styles.links}>
        <button type="button" className={styles.link} onClick={() => openAuthDialog('forgot', { email: getValues('email') })}>
          Forgot password?
        </button>
        <span>
          No account?{' '}
          <button type="button" className={styles.link} onClick={() => openAuthDialog('signup')}>
            Sign Up
          </button>
        </span>
      </div>
      {checkout && (
        <div className={styles.guest}>
          <p className={styles.or}>or</p>
          <button type="button" className={styles.secondary} onClick={() => openAuthDialog('guest', { checkout, email: getValues('email') })}>
            Continue as guest
          </button>
          <p className={`${styles.hint} ${styles.center}`}>No account needed: we e-mail you a link to your order and its keys.</p>
        </div>
      )}
    </form>
  );
}
