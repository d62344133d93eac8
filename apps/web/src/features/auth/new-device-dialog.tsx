import { accountMessages } from '@keystore/contract/messages';
import { closeAuthDialog } from '../../lib/auth-dialog.ts';
import { showToast } from '../../ui/toasts.tsx';
import { useResendNewDeviceCode, useVerifyNewDevice } from './api.ts';
import { CodeForm } from './code-form.tsx';
import { SUCCESS_TO_LOGIN_MS } from './delays.ts';
import { ResendCode } from './resend-code.tsx';
import { continueSignIn } from './setup-dialog.tsx';
import { useLater } from './use-later.ts';
import styles from './auth-modal.module.css';

/** The new-device check (SPEC §2, §4): a login from an IP the account has not used asks for an e-mailed code. */
export function NewDeviceDialog({ email }: { email: string }) {
  const later = useLater();
  const verifyNewDevice = useVerifyNewDevice();
  const resendNewDeviceCode = useResendNewDeviceCode();
  const verify = async (code: string) => {
    const answer = await verifyNewDevice.mutateAsync({ email, code });
    showToast(accountMessages.newDeviceVerified);
    // Signed in, or (the owner requires it of this account) a second factor to set up first.
    continueSignIn(answer, email, () => later(closeAuthDialog, SUCCESS_TO_LOGIN_MS));
  };
  return (
    <div className={styles.form}>
      <p className={styles.text}>
        You are logging in from a new IP address. To keep your account safe, we sent a 6-digit code to <strong>{email}</strong>. Enter
        it to confirm it is you.
      </p>
      <CodeForm verify={verify} clearOnError />
      <ResendCode resend={() => resendNewDeviceCode.mutateAsync(email)} />
    </div>
  );
}
