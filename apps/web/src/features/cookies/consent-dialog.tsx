import { useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'react-router';
import type { Consent, ConsentStatus, CookiePreferences } from '../../lib/consent.ts';
import { useFocusTrap } from '../../ui/use-focus-trap.ts';
import styles from './cookie-consent.module.css';

interface ConsentDialogProps {
  /** The standing choice, or null on a first visit (then a choice is required: no Escape, no close). */
  consent: Consent | null;
  onDecide: (status: ConsentStatus, chosen: Omit<CookiePreferences, 'necessary'>) => void;
  onClose: () => void;
}

const CATEGORIES = [
  { key: 'necessary', label: 'Necessary', text: 'Keep you signed in, remember your cart and this choice. Always on: the store cannot work without them.' },
  { key: 'statistic', label: 'Statistics', text: 'Anonymous visit statistics from our analytics service, so we can see which pages help and which do not.' },
  { key: 'preferences', label: 'Preferences', text: 'Remember settings you choose on this device, so you do not have to set them again.' },
] as const;

/** The cookie consent dialog (SPEC §4): three categories and the choices Deny, Allow selection, Allow all. */
export function ConsentDialog({ consent, onDecide, onClose }: ConsentDialogProps) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const textId = useId();
  const [chosen, setChosen] = useState({ statistic: consent?.preferences.statistic ?? false, preferences: consent?.preferences.preferences ?? false });
  const dismissible = consent !== null;
  useFocusTrap(
    ref,
    () => {
      if (dismissible) onClose();
    },
    { initialFocus: 'container', isolate: true },
  );

  return createPortal(
    <div
      className={styles.backdrop}
      onMouseDown={(event) => {
        if (dismissible && event.target === event.currentTarget) onClose();
      }}
    >
      <div ref={ref} className={styles.dialog} role="dialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={textId} tabIndex={-1}>
        <div className={styles.head}>
          <h2 id={titleId} className={styles.title}>
            Cookies on Keystore
          </h2>
          {dismissible && (
            <button type="button" className={styles.close} aria-label="Close cookie settings" onClick={onClose}>
              <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
                <path d="M6 6l12 12M18 6L6 18" />
              </svg>
            </button>
          )}
        </div>
        <p id={textId} className={styles.text}>
          We use the storage the store needs to work. With your permission we would also like to collect visit statistics and remember your
          preferences. Nothing beyond the necessary is used until you choose, and you can change your mind at any time with the cookie button
          or on the <Link to="/cookie-policy" onClick={dismissible ? onClose : undefined}>Cookie Policy</Link> page.
        </p>
        <ul className={styles.categories}>
          {CATEGORIES.map((category) => {
            const id = `${titleId}-${category.key}`;
            return (
              <li key={category.key} className={styles.category}>
                <div>
                  <label htmlFor={id} className={styles.label}>
                    {category.label}
                  </label>
                  <p id={`${id}-text`} className={styles.hint}>
                    {category.text}
                  </p>
                </div>
                {category.key === 'necessary' ? (
                  <input id={id} type="checkbox" role="switch" className={styles.switch} aria-describedby={`${id}-text`} checked disabled readOnly />
                ) : (
                  <input
                    id={id}
                    type="checkbox"
                    role="switch"
                    className={styles.switch}
                    aria-describedby={`${id}-text`}
                    checked={chosen[category.key]}
                    onChange={(event) => setChosen({ ...chosen, [category.key]: event.target.checked })}
                  />
                )}
              </li>
            );
          })}
        </ul>
        <div className={styles.actions}>
          <button type="button" className={styles.secondary} onClick={() => onDecide('necessary', { statistic: false, preferences: false })}>
            Deny
          </button>
          <button type="button" className={styles.secondary} onClick={() => onDecide('custom', chosen)}>
            Allow selection
          </button>
          <button type="button" className={styles.primary} onClick={() => onDecide('all', { statistic: true, preferences: true })}>
            Allow all
          </button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
