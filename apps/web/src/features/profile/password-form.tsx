import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { accountMessages, accountUiMessages, validationMessages } from '@keystore/contract/messages';
import { newPasswordProblem } from '@keystore/contract/rules';
import { byRule, showPasswordRefusal } from '../../lib/form-rules.ts';
import { showToast } from '../../ui/toasts.tsx';
import { useChangePassword } from './api.ts';
import { sellerApiKeysQuery } from './security-api.ts';
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
export function PasswordForm({ token }: { token: string }) {
  const { register, handleSubmit, reset, setError, formState } = useForm<PasswordFields>({ defaultValues: EMPTY });
  const { errors, isSubmitting } = formState;

  const changePassword = useChangePassword();
  // A seller is asked whether its API keys go too (issue 30): whoever had the old password may have made one.
  const apiKeys = useQuery(sellerApiKeysQuery(token));
  const hasApiKeys = (apiKeys.data?.length ?? 0) > 0;
  const [revokeApiKeys, setRevokeApiKeys] = useState(false);
  const submit = handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      await changePassword.mutateAsync(hasApiKeys && revokeApiKeys ? { currentPassword, newPassword, revokeApiKeys: true } : { currentPassword, newPassword });
      reset(EMPTY);
      showToast(accountMessages.passwordUpdated);
    } catch (error) {
      showPasswordRefusal(error, accountUiMessages.passwordUpdateFailed, {
        underPassword: (message) => setError('newPassword', { message }, { shouldFocus: true }),
        alert: (message) => setError('root.server', { message }),
      });
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
          {...register('newPassword', { validate: byRule(newPasswordProblem) })}
        />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register('confirmPassword', { validate: (value, values) => value === values.newPassword || validationMessages.passwordsDiffer })}
        />
        {hasApiKeys && (
          <label className={controls.check}>
            <input type="checkbox" checked={revokeApiKeys} onChange={(event) => setRevokeApiKeys(event.target.checked)} />
            Also delete my seller API keys
          </label>
        )}
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
