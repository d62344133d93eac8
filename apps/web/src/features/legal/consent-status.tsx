import { useState } from 'react';
import { consentExpiresAt, useConsent, type Consent } from '../../lib/consent.ts';
import styles from './consent-status.module.css';

const STATUS_LABELS: Record<Consent['status'], string> = {
  necessary: 'Necessary only (denied)',
  custom: 'Your selection',
  all: 'All allowed',
};

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short' });

function allowedCategories(consent: Consent): string {
  const allowed = ['Necessary'];
  if (consent.preferences.statistic) allowed.push('Statistics');
  if (consent.preferences.preferences) allowed.push('Preferences');
  return allowed.join(', ');
}

/** The visitor's current cookie consent (state, ID, date) with "Change your consent" and "Withdraw your consent". */
export function ConsentStatus() {
  const { consent, reopen, withdraw } = useConsent();
  const [withdrawn, setWithdrawn] = useState(false);

  return (
    <section className={styles.panel} aria-labelledby="your-consent">
      <h2 id="your-consent" className={styles.title}>
        Your consent
      </h2>
      <dl className={styles.facts}>
        <dt>Status</dt>
        <dd>{consent ? STATUS_LABELS[consent.status] : 'Not given yet'}</dd>
        <dt>Allowed</dt>
        <dd>{consent ? allowedCategories(consent) : 'Necessary only, until you choose'}</dd>
        <dt>Consent ID</dt>
        <dd>{consent ? <code className={styles.id}>{consent.id}</code> : 'None yet'}</dd>
        <dt>Date given</dt>
        <dd>{consent ? <time dateTime={consent.givenAt}>{dateFormat.format(new Date(consent.givenAt))}</time> : 'None yet'}</dd>
        <dt>Valid until</dt>
        <dd>{consent ? <time dateTime={consentExpiresAt(consent).toISOString()}>{dateFormat.format(consentExpiresAt(consent))}</time> : 'None yet'}</dd>
      </dl>
      <div className={styles.actions}>
        <button
          type="button"
          className={styles.primary}
          aria-haspopup="dialog"
          onClick={() => {
            setWithdrawn(false);
            reopen();
          }}
        >
          Change your consent
        </button>
        <button
          type="button"
          className={styles.secondary}
          onClick={() => {
            withdraw();
            setWithdrawn(true);
          }}
        >
          Withdraw your consent
        </button>
      </div>
      <p className={styles.note} role="status">
        {withdrawn && consent?.status === 'necessary'
          ? 'Your consent has been withdrawn. Only necessary storage is used now, and statistics scripts and cookies have been removed.'
          : ''}
      </p>
    </section>
  );
}
