import { Link } from 'react-router';
import { SUPPORT_HOURS } from '@keystore/contract/constants';
import { supportEmail } from '../lib/store-facts.ts';
import styles from './footer.module.css';


/** Legal links, company, accepted cards and the support address (SPEC §2, tablet and mobile footers). */
export function Footer() {
  return (
    <footer className={styles.footer}>
      <nav aria-label="Legal" className={styles.links}>
        <Link to="/terms">Terms &amp; Conditions</Link>
        <Link to="/cookie-policy">Cookie Policy</Link>
        <Link to="/privacy-policy">Privacy Policy</Link>
      </nav>
      <div className={styles.row}>
        <p className={styles.company}>© {new Date().getFullYear()} Keystore Digital Ltd, registered in England and Wales. All prices in euro.</p>
        <ul className={styles.cards} aria-label="Accepted payment methods">
          <li>
            <svg width="52" height="32" viewBox="0 0 52 32" role="img" aria-label="Visa"><rect width="52" height="32" rx="5" fill="#fff" /><text x="26" y="21" textAnchor="middle" fontFamily="Verdana, sans-serif" fontWeight="700" fontStyle="italic" fontSize="14" fill="#1a1f71">VISA</text></svg>
          </li>
          <li>
            <svg width="52" height="32" viewBox="0 0 52 32" role="img" aria-label="Mastercard"><rect width="52" height="32" rx="5" fill="#fff" /><circle cx="21" cy="16" r="9" fill="#eb001b" /><circle cx="31" cy="16" r="9" fill="#f79e1b" fillOpacity="0.9" /></svg>
          </li>
        </ul>
      </div>
      <p className={styles.support}>
        Support, {SUPPORT_HOURS}: <a href={`mailto:${supportEmail()}`}>{supportEmail()}</a>
      </p>
    </footer>
  );
}
