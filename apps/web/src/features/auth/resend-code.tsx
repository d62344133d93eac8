import { useState } from 'react';
import type { MessageAnswer } from '@keystore/contract';
import { accountMessages, accountUiMessages } from '@keystore/contract/messages';
import { ApiError } from '../../lib/api.ts';
import { showToast } from '../../ui/toasts.tsx';
import { useResendLock } from './use-resend-lock.ts';
import styles from './auth-modal.module.css';

/** "Resend code" with the 30-second lock and its visible countdown (SPEC §4, §8). */
export function ResendCode({ resend }: { resend: () => Promise<MessageAnswer> }) {
  const { secondsLeft, lock } = useResendLock();
  const [sending, setSending] = useState(false);

  const onResend = async () => {
    setSending(true);
    try {
      const answer = await resend();
      showToast(answer.message || accountMessages.codeResent);
      lock();
    } catch (error) {
      showToast(accountUiMessages.resendCodeFailed, 'error');
      // The server refused because a code went out moments ago: wait as long as it says.
      if (error instanceof ApiError && error.status === 429 && error.retryAfter) lock(error.retryAfter);
    } finally {
      setSending(false);
    }
  };

  return (
    <p className={`${styles.hint} ${styles.center}`}>
      Didn&apos;t get the code?{' '}
      <button type="button" className={styles.link} disabled={sending || secondsLeft > 0} onClick={() => void onResend()}>
        {secondsLeft > 0 ? `Resend code in ${secondsLeft} s` : 'Resend code'}
      </button>
    </p>
  );
}
