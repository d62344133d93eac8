import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { appConfigQuery, applyAnalytics, useConsent } from '../../lib/consent.ts';
import { ConsentDialog } from './consent-dialog.tsx';
import styles from './cookie-consent.module.css';

/**
 * The cookie consent of every page (SPEC §2, §4): the dialog on a first visit and whenever reopened,
 * a floating cookie button that reopens it, and the analytics script loaded or removed to match the choice.
 */
export function CookieConsent() {
  const { consent, isOpen, decide, reopen, close } = useConsent();
  const statistics = consent?.preferences.statistic ?? false;
  // The configuration only names the analytics script: no request (and no render when it answers)
  // until statistics are allowed, which on a first visit they are not.
  const config = useQuery({ ...appConfigQuery, enabled: statistics });
  const scriptUrl = config.data?.analyticsScriptUrl ?? null;

  useEffect(() => {
    // With statistics allowed, wait for the configuration before deciding; a refusal needs no URL.
    if (statistics && config.isPending) return;
    applyAnalytics(consent, scriptUrl);
  }, [consent, statistics, scriptUrl, config.isPending]);

  return (
    <>
      <button type="button" className={styles.fab} aria-label="Cookie settings" aria-haspopup="dialog" onClick={reopen}>
        <svg width="26" height="26" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
          <path d="M12 3a9 9 0 109 9 3 3 0 01-3.5-3A3 3 0 0114 5.5 3 3 0 0112 3z" />
          <circle cx="8.5" cy="10.5" r="1" fill="currentColor" />
          <circle cx="10" cy="15.5" r="1" fill="currentColor" />
          <circle cx="15" cy="14.5" r="1" fill="currentColor" />
        </svg>
      </button>
      {isOpen && <ConsentDialog consent={consent} onDecide={decide} onClose={close} />}
    </>
  );
}
