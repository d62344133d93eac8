import { openAuthDialog } from '../../lib/auth-dialog.ts';
import styles from './library-page.module.css';

const BENEFITS = [
  { title: 'Instant delivery of keys', text: 'Your activation keys arrive here the moment a payment goes through.' },
  { title: 'All your keys in one place', text: 'Reveal any key you have bought, whenever you need it, on any device.' },
  { title: 'Order history', text: 'Every purchase with its date, amount, payment and delivery status.' },
  { title: 'Personal notifications', text: 'News about your orders and offers picked for you.' },
] as const;

/** What a visitor sees in the library: why an account helps, and the way to make one or sign in. */
export function LibraryWelcome() {
  return (
    <section className={styles.page} aria-labelledby="library-title">
      <div className={styles.welcome}>
        <h1 id="library-title" className={styles.title}>
          Welcome to your Library
        </h1>
        <p className={styles.lead}>Sign in to keep every game key you buy in one safe place.</p>
        <ul className={styles.benefits}>
          {BENEFITS.map((benefit) => (
            <li key={benefit.title} className={styles.benefit}>
              <svg className={styles.tick} width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
                <path d="M5 12l5 5 9-10" />
              </svg>
              <div>
                <h2 className={styles.benefitTitle}>{benefit.title}</h2>
                <p className={styles.benefitText}>{benefit.text}</p>
              </div>
            </li>
          ))}
        </ul>
        <div className={styles.actions}>
          <button type="button" className={styles.primary} onClick={() => openAuthDialog('signup')}>
            Create Account
          </button>
          <button type="button" className={styles.secondary} onClick={() => openAuthDialog('login')}>
            Sign In
          </button>
        </div>
      </div>
    </section>
  );
}
