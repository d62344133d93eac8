import { SUCCESS_TO_LOGIN_MS } from '@keystore/contract/constants';
import { accountMessages } from '@keystore/contract/messages';
import { openAuthDialog } from '../../lib/auth-dialog.ts';
import { showToast } from '../../ui/toasts.tsx';
import { resendVerification, verifyEmail } from './auth-api.ts';
import { CodeForm } from './code-form.tsx';
import { ResendCode } from './resend-code.tsx';
import { useLater } from './use-later.ts';
import styles from './auth-modal.module.css';

/** The e-mail code dialog (SPEC §4, §8): after sign-up or an unverified login; verified, it leads to login. */
export function ConfirmDialog({ email }: { email: string }) {
  const later = useLater();
  const verify = async (code: string) => {
    const answer = await verifyEmail(email, code);
    showToast(answer.message || accountMessages.emailVerified);
    later(() => openAuthDialog('login', { email }), SUCCESS_TO_LOGIN_MS);
  };
  return (
    <div className={styles.form}>
      <p className={styles.text}>
        We sent a 6-digit code to <strong>{email}</strong>. Enter it to confirm your email address.
      </p>
      <CodeForm verify={verify} />
      <ResendCode resend={() => resendVerification(email)} />
    </div>
  );
}
