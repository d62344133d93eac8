import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { accountMessages, accountUiMessages, validationMessages } from '@keystore/contract/messages';
import { resetPasswordProblem } from '@keystore/contract/rules';
import { openAuthDialog } from '../../lib/auth-dialog.ts';
import { messageOf } from '../../lib/api.ts';
import { showToast } from '../../ui/toasts.tsx';
import { resetPassword } from './auth-api.ts';
import { TextField } from './text-field.tsx';
import styles from './auth-modal.module.css';

interface ResetValues {
  password: string;
  confirmPassword: string;
}

/** The new password from a /reset-password link (SPEC §5, §8): Submit waits until both fields hold. */
export function ResetPasswordDialog({ email = '', token = '' }: { email?: string; token?: string }) {
  const { register, handleSubmit, setError, formState } = useForm<ResetValues>({ mode: 'onChange', defaultValues: { password: '', confirmPassword: '' } });
  const { errors, dirtyFields, isValid, isSubmitting } = formState;
  const [failure, setFailure] = useState<string | null>(null);

  const submit = handleSubmit(async ({ password }) => {
    setFailure(null);
    try {
      await resetPassword(email, token, password);
      showToast(accountMessages.passwordChanged);
      openAuthDialog('reset-success', { email });
    } catch (error) {
      const message = messageOf(error, accountUiMessages.resetFailed);
      // The one password rule only the server checks: shown under the field, and Submit waits for a change.
      if (message === validationMessages.passwordCommon) setError('password', { message }, { shouldFocus: true });
      else setFailure(message);
    }
  });

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      {email && (
        <p className={styles.text}>
          Choose a new password for <strong>{email}</strong>.
        </p>
      )}
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        registration={register('password', { validate: (value) => resetPasswordProblem(value) ?? true, deps: ['confirmPassword'] })}
        error={errors.password?.message}
      />
      <TextField
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        registration={register('confirmPassword', { validate: (value, values) => value === values.password || validationMessages.resetPasswordsDiffer })}
        // Re-checked as the first field changes, but only shown once the user has typed here.
        error={dirtyFields.confirmPassword ? errors.confirmPassword?.message : undefined}
      />
      {failure && (
        <p className={styles.alert} role="alert">
          {failure}
        </p>
      )}
      <button type="submit" className={styles.primary} disabled={!isValid || isSubmitting}>
        {isSubmitting ? 'Saving…' : 'Reset password'}
      </button>
    </form>
  );
}
