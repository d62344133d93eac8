import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { accountUiMessages, validationMessages } from '@keystore/contract/messages';
import { normalizeEmail } from '@keystore/contract/rules';
import { messageOf } from '../../lib/api.ts';
import { openAuthDialog } from '../../lib/auth-dialog.ts';
import { Spinner } from '../../ui/spinner.tsx';
import { verifyEmailLinkQuery } from './api.ts';
import styles from './confirm-email-page.module.css';

/** The link of the sign-up e-mail (SPEC §2, /confirm-email?email=…&code=…): verifies and says how it went. */
export function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const email = normalizeEmail(params.get('email') ?? '');
  const code = (params.get('code') ?? '').trim();
  const missing = !email ? validationMessages.linkEmailMissing : !code ? validationMessages.linkCodeMissing : undefined;
  const verification = useQuery({ ...verifyEmailLinkQuery(email, code), enabled: !missing });

  if (!missing && verification.isPending) {
    return (
      <section className={styles.page} aria-busy="true">
        <span aria-hidden="true">
          <Spinner />
        </span>
        <p className={styles.text} role="status">
          Verifying your email...
        </p>
      </section>
    );
  }

  if (!missing && verification.isSuccess) {
    return (
      <section className={styles.page} aria-labelledby="confirm-email-title">
        <h1 id="confirm-email-title" className={styles.title}>
          Email is Verified
        </h1>
        {verification.data.message && <p className={styles.text}>{verification.data.message}</p>}
        <button
          type="button"
          className={styles.action}
          onClick={() => {
            void navigate('/');
            openAuthDialog('login', { email });
          }}
        >
          Sign in
        </button>
      </section>
    );
  }

  const error = verification.error;
  const reason = missing ?? messageOf(error, accountUiMessages.linkVerificationFailed);
  return (
    <section className={styles.page} aria-labelledby="confirm-email-title">
      <h1 id="confirm-email-title" className={styles.title}>
        Verification Failed
      </h1>
      <p className={styles.text} role="alert">
        {reason}
      </p>
      <Link to="/" className={styles.action}>
        Return to Home
      </Link>
    </section>
  );
}
