import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { LoginAnswer, SetupChallengeRequest, SetupEnableRequest, SetupSignIn, TotpSetup } from '@keystore/contract';
import { securityMessages } from '@keystore/contract/messages';
import { apiSend, messageOf } from '../../lib/api.ts';
import { closeAuthDialog, openAuthDialog } from '../../lib/auth-dialog.ts';
import { signIn } from '../../lib/session.ts';
import { CodeForm } from './code-form.tsx';
import styles from './auth-modal.module.css';

/** Where a sign-in goes after a step that may ask for more (the password, the e-mailed code): the next step, or signed in. */
export function continueSignIn(answer: LoginAnswer, email: string, onSession: () => void): void {
  if (!('twoFactorRequired' in answer)) {
    signIn(answer.token, answer.user);
    onSession();
  } else if (answer.method === 'totp' && answer.challenge) openAuthDialog('totp', { email, challenge: answer.challenge });
  else if (answer.method === 'setup' && answer.challenge) openAuthDialog('setup', { email, challenge: answer.challenge });
  else openAuthDialog('verifyNewDevice', { email });
}

/** A sign-in whose step can no longer go on (its challenge is over): why, and the way back to the password. */
export function SignInAgain({ email, why }: { email: string; why: string }) {
  return (
    <div className={styles.form}>
      <p className={`${styles.error} ${styles.center}`} role="alert">
        {why}
      </p>
      <button type="button" className={styles.primary} onClick={() => openAuthDialog('login', { email })}>
        Sign in again
      </button>
    </div>
  );
}

/**
 * The set-up the owner requires of this account before it may sign in (issue 30: admins, sellers):
 * scan the QR code, confirm with the app's first code, keep the recovery codes, then in.
 */
export function SetupDialog({ email, challenge }: { email: string; challenge: string }) {
  const setup = useQuery({
    queryKey: ['sign-in-setup', challenge],
    queryFn: () => apiSend<TotpSetup, SetupChallengeRequest>('POST', '/api/auth/login/setup/totp', { challenge }),
    retry: false,
    staleTime: Infinity,
  });
  const [done, setDone] = useState<SetupSignIn | null>(null);

  if (done) {
    return (
      <div className={styles.form}>
        <p className={styles.text}>Keep these recovery codes somewhere safe: each signs you in once if you lose your phone. They are shown only now.</p>
        <ul className={styles.recoveryCodes} aria-label="Recovery codes">
          {done.recoveryCodes.map((code) => (
            <li key={code}>
              <code>{code}</code>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className={styles.primary}
          onClick={() => {
            signIn(done.session.token, done.session.user);
            closeAuthDialog();
          }}
        >
          I saved them, continue
        </button>
      </div>
    );
  }
  if (setup.isError) return <SignInAgain email={email} why={messageOf(setup.error, securityMessages.challengeExpired)} />;
  return (
    <div className={styles.form}>
      <p className={styles.text}>{securityMessages.setupRequired}</p>
      {setup.data ? (
        <>
          <p className={styles.text}>Scan this QR code with your authenticator app, then enter the 6-digit code it shows.</p>
          {/* The store's own SVG (the qrcode library's), drawn from the otpauth:// address. */}
          <div className={styles.qr} role="img" aria-label="QR code for your authenticator app" dangerouslySetInnerHTML={{ __html: setup.data.qrSvg }} />
          <p className={styles.hint}>
            Or type this key: <code>{setup.data.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
          </p>
          <CodeForm
            label="Authenticator code"
            clearOnError
            verify={async (code) => setDone(await apiSend<SetupSignIn, SetupEnableRequest>('POST', '/api/auth/login/setup/totp/enable', { challenge, code }))}
          />
        </>
      ) : (
        <p className={styles.hint} role="status">
          Preparing your set-up…
        </p>
      )}
    </div>
  );
}
