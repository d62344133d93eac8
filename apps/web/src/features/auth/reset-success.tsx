import { openAuthDialog } from '../../lib/auth-dialog.ts';
import styles from './auth-modal.module.css';

/** After a reset (SPEC §2): the dialog's title says it; Sign In leads to login with the e-mail filled in. */
export function ResetSuccess({ email = '' }: { email?: string }) {
  return (
    <div className={styles.form}>
      <p className={styles.text}>You can now sign in with your new password.</p>
      <button type="button" className={styles.primary} onClick={() => openAuthDialog('login', { email })}>
        Sign In
      </button>
    </div>
  );
}
