import { accountMessages } from '@keystore/contract/messages';
import { openAuthDialog } from '../../lib/auth-dialog.ts';
import { showToast } from '../../ui/toasts.tsx';
import { useResendVerification, useVerifyEmail } from './api.ts';
import { CodeForm } from './code-form.tsx';
import { SUCCESS_TO_LOGIN_MS } from './delays.ts';
import { ResendCode } from './resend-code.tsx';
import { useLater } from './use-later.ts';
import styles from './auth-modal.module.css';

/** The e-mail code dialog (SPEC §4, §8): after sign-up or an unverified login; verified, it leads to login. */
export function ConfirmDialog({ email }: { email: string }) {
  const later = useLater();
  const verifyEmail = useVerifyEmail();
  const resendVerification = useResendVerification();
  const verify = async (code: string) => {
    const answer = await verifyEmail.mutateAsync({ email, code });
    showToast(answer.message || accountMessages.emailVerified);
    later(() => openAuthDialog('login', { email }), SUCCESS_TO_LOGIN_MS);
  };
  return (
    <div className={styles.form}>
      <p className={styles.text}>
        We sent a 6-digit code to <strong>{email}</strong>. Enter it to confirm your email address.
      </p>
      <CodeForm verify={verify} />
      <ResendCode resend={() => resendVerification.mutateAsync(email)} />
    </div>
  );
}
