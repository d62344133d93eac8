import { useForm } from 'react-hook-form';
import type { ChangePasswordRequest, MessageAnswer } from '@keystore/contract';
import { accountMessages, accountUiMessages, validationMessages } from '@keystore/contract/messages';
import { newPasswordProblem } from '@keystore/contract/rules';
import { ApiError, apiSend } from '../../lib/api.ts';
import { showToast } from '../../ui/toasts.tsx';
import { PasswordField } from './password-field.tsx';
import controls from './controls.module.css';
import styles from './profile-page.module.css';

interface PasswordFields {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

const EMPTY: PasswordFields = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** 'Change your password' (SPEC §5 change password, §8): the server also ends the other sessions. */
export function PasswordForm() {
  const { register, handleSubmit, reset, setError, formState } = useForm<PasswordFields>({ defaultValues: EMPTY });
  const { errors, isSubmitting } = formState;

  const submit = handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      await apiSend<MessageAnswer>('PUT', '/api/users/password', { currentPassword, newPassword } satisfies ChangePasswordRequest);
      reset(EMPTY);
      showToast(accountMessages.passwordUpdated);
    } catch (error) {
      const said = error instanceof ApiError && error.fromServer;
      // The one password rule only the server checks: shown under the field like the others.
      if (said && error.message === validationMessages.passwordCommon) setError('newPassword', { message: error.message }, { shouldFocus: true });
      else setError('root.server', { message: said ? error.message : accountUiMessages.passwordUpdateFailed });
    }
  });

  return (
    <section className={styles.card} aria-labelledby="password-title">
      <h2 id="password-title" className={styles.cardTitle}>
        Change your password
      </h2>
      <form className={styles.form} onSubmit={submit} noValidate>
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          error={errors.currentPassword?.message}
          {...register('currentPassword', { validate: (value) => value !== '' || validationMessages.currentPasswordRequired })}
        />
        <PasswordField
          label="New password"
          autoComplete="new-password"
          error={errors.newPassword?.message}
          {...register('newPassword', { validate: (value) => newPasswordProblem(value) ?? true })}
        />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register('confirmPassword', { validate: (value, values) => value === values.newPassword || validationMessages.passwordsDiffer })}
        />
        <p className={controls.error} role="alert">
          {errors.root?.server?.message}
        </p>
        <div className={controls.actions}>
          <button type="submit" className={controls.primary} disabled={isSubmitting}>
            {isSubmitting ? 'Updating…' : 'Update password'}
          </button>
        </div>
      </form>
    </section>
  );
}
