import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { accountMessages, accountUiMessages, validationMessages } from '@keystore/contract/messages';
import { resetPasswordProblem } from '@keystore/contract/rules';
import { openAuthDialog } from '../../lib/auth-dialog.ts';
import { showPasswordRefusal } from '../../lib/form-rules.ts';
import { showToast } from '../../ui/toasts.tsx';
import { useResetPassword } from './api.ts';
import { NewPasswordFields } from './new-password-fields.tsx';
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
  const resetPassword = useResetPassword();

  const submit = handleSubmit(async ({ password }) => {
    setFailure(null);
    try {
      await resetPassword.mutateAsync({ email, token, password });
      showToast(accountMessages.passwordChanged);
      openAuthDialog('reset-success', { email });
    } catch (error) {
      showPasswordRefusal(error, accountUiMessages.resetFailed, { underPassword: (message) => setError('password', { message }, { shouldFocus: true }), alert: setFailure });
    }
  });

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      {email && (
        <p className={styles.text}>
          Choose a new password for <strong>{email}</strong>.
        </p>
      )}
      <NewPasswordFields
        register={register}
        errors={errors}
        labels={{ password: 'New password', confirm: 'Confirm new password' }}
        rule={resetPasswordProblem}
        differ={validationMessages.resetPasswordsDiffer}
        showConfirmError={dirtyFields.confirmPassword === true}
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
