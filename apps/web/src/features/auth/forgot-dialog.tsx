import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { accountMessages, accountUiMessages } from '@keystore/contract/messages';
import { emailProblem, normalizeEmail } from '@keystore/contract/rules';
import { byRule } from '../../lib/form-rules.ts';
import { closeAuthDialog, openAuthDialog } from '../../lib/auth-dialog.ts';
import { showToast } from '../../ui/toasts.tsx';
import { useForgotPassword } from './api.ts';
import { FORGOT_CLOSE_MS } from './delays.ts';
import { TextField } from './text-field.tsx';
import { useLater } from './use-later.ts';
import styles from './auth-modal.module.css';

/** Password recovery (SPEC §8): the e-mail gets a reset link; the dialog closes 2 s after the request. */
export function ForgotDialog({ email = '' }: { email?: string }) {
  const { register, handleSubmit, getValues, formState } = useForm<{ email: string }>({ mode: 'onTouched', defaultValues: { email } });
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const later = useLater();
  const forgotPassword = useForgotPassword();

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await forgotPassword.mutateAsync(values.email);
      showToast(answer.message || accountMessages.recoveryEmailSent);
      setSent(true);
      later(closeAuthDialog, FORGOT_CLOSE_MS);
    } catch {
      setFailure(accountUiMessages.forgotFailed);
    }
  });

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <p className={styles.text}>Enter the email of your account and we will send you a link to choose a new password.</p>
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        registration={register('email', { validate: byRule(emailProblem) })}
        error={formState.errors.email?.message}
      />
      {failure && (
        <p className={styles.alert} role="alert">
          {failure}
        </p>
      )}
      <button type="submit" className={styles.primary} disabled={formState.isSubmitting || sent}>
        {formState.isSubmitting ? 'Sending…' : 'Send recovery email'}
      </button>
      <p className={`${styles.hint} ${styles.center}`}>
        Remembered it?{' '}
        <button type="button" className={styles.link} onClick={() => openAuthDialog('login', { email: normalizeEmail(getValues('email')) })}>
          Back to login
        </button>
      </p>
    </form>
  );
}
