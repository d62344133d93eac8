import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { MessageAnswer } from '@keystore/contract';
import { accountMessages, accountUiMessages } from '@keystore/contract/messages';
import { ApiError, apiSend } from '../../lib/api.ts';
import { clearSession } from '../../lib/session.ts';
import { Modal } from '../../ui/modal.tsx';
import { showToast } from '../../ui/toasts.tsx';
import controls from './controls.module.css';
import styles from './profile-page.module.css';

/** Why a deletion failed (SPEC §8): the server's words, or ours when it said nothing or did not answer. */
function deletionError(error: unknown): string {
  if (error instanceof ApiError && error.fromServer) return error.message;
  if (error instanceof ApiError && error.status !== 0) return accountUiMessages.deleteFailed;
  return accountUiMessages.deleteError;
}

/** 'Delete your account', confirmed in a dialog; afterwards the browser forgets the session and goes home. */
export function DeleteAccount() {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();

  const remove = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      const answer = await apiSend<MessageAnswer | undefined>('DELETE', '/api/users/profile');
      // Home first, so the profile does not show its signed-out prompt on the way out.
      navigate('/', { replace: true });
      clearSession();
      showToast(answer?.message ?? accountMessages.accountDeleted);
    } catch (error) {
      setProblem(deletionError(error));
      setBusy(false);
    }
  };

  const close = () => {
    setConfirming(false);
    setProblem(undefined);
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
          <p className={styles.cardText}>This cannot be undone. Your keys and order history will no longer be available to you.</p>
          <p className={controls.error} role="alert">
            {problem}
          </p>
          <div className={controls.actions}>
            <button type="button" className={controls.secondary} onClick={close} disabled={busy}>
              Cancel
            </button>
            <button type="button" className={`${controls.danger} ${controls.solid}`} onClick={remove} disabled={busy}>
              {busy ? 'Deleting…' : 'Delete account'}
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}
