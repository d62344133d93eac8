import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { DeleteAccountRequest } from '@keystore/contract';
import { accountMessages, accountUiMessages, validationMessages } from '@keystore/contract/messages';
import { ApiError } from '../../lib/api.ts';
import { clearSession } from '../../lib/session.ts';
import { Modal } from '../../ui/modal.tsx';
import { showToast } from '../../ui/toasts.tsx';
import { useDeleteAccount } from './api.ts';
import { PasswordField } from './password-field.tsx';
import controls from './controls.module.css';
import styles from './profile-page.module.css';

/** Why a deletion failed (SPEC §8): the server's words, or ours when it said nothing or did not answer. */
function deletionError(error: unknown): string {
  if (error instanceof ApiError && error.fromServer) return error.message;
  if (error instanceof ApiError && error.status !== 0) return accountUiMessages.deleteFailed;
  return accountUiMessages.deleteError;
}

const EMPTY: DeleteAccountRequest = { currentPassword: '' };

/**
 * 'Delete your account', confirmed in a dialog with the password (a token alone must not be enough
 * to erase an account); afterwards the browser forgets the session and goes home.
 */
export function DeleteAccount() {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const { register, handleSubmit, reset, setError, formState } = useForm<DeleteAccountRequest>({ defaultValues: EMPTY });
  const { errors, isSubmitting: busy } = formState;

  const deleteAccount = useDeleteAccount();
  const remove = handleSubmit(async ({ currentPassword }) => {
    try {
      const answer = await deleteAccount.mutateAsync({ currentPassword });
      // Home first, so the profile does not show its signed-out prompt on the way out.
      navigate('/', { replace: true });
      clearSession();
      showToast(answer?.message ?? accountMessages.accountDeleted);
    } catch (error) {
      setError('root.server', { message: deletionError(error) });
    }
  });

  const close = () => {
    setConfirming(false);
    reset(EMPTY);
  };

  return (
    <section className={`${styles.card} ${styles.dangerCard}`} aria-labelledby="delete-title">
      <h2 id="delete-title" className={styles.cardTitle}>
        Delete your account
      </h2>
      <p className={styles.cardText}>Your profile, photo and sign-ins are removed for good. Orders stay in our records without your name.</p>
      <div>
        <button type="button" className={controls.danger} onClick={() => setConfirming(true)}>
          Delete your account
        </button>
      </div>
      {confirming && (
        <Modal title="Delete your account?" busy={busy} onClose={close}>
          <form className={styles.form} onSubmit={remove} noValidate>
            <p className={styles.cardText}>This cannot be undone. Your keys and order history will no longer be available to you.</p>
            <PasswordField
              label="Your password"
              autoComplete="current-password"
              error={errors.currentPassword?.message}
              {...register('currentPassword', { validate: (value) => value !== '' || validationMessages.currentPasswordRequired })}
            />
            <p className={controls.error} role="alert">
              {errors.root?.server?.message}
            </p>
            <div className={controls.actions}>
              <button type="button" className={controls.secondary} onClick={close} disabled={busy}>
                Cancel
              </button>
              <button type="submit" className={`${controls.danger} ${controls.solid}`} disabled={busy}>
                {busy ? 'Deleting…' : 'Delete account'}
              </button>
            </div>
          </form>
        </Modal>
      )}
    </section>
  );
}
