import { SUPPORT_HOURS } from '@keystore/contract/constants';
import { FeedbackForm } from './feedback-form.tsx';
import { LiveChat } from './live-chat.tsx';
import styles from './support-page.module.css';

/** Support (SPEC §2): the e-mail form and the live chat side by side, stacked on narrow screens. */
export function SupportPage() {
  return (
    <section className={styles.page} aria-labelledby="support-title">
      <title>Support · Keystore</title>
      <h1 id="support-title" className={styles.heading}>
        Support
      </h1>
      <p className={styles.lead}>
        Our team is here {SUPPORT_HOURS}. Ask the AI support in the live chat for a quick answer, or send us a message and we reply within 24 hours.
      </p>
      <div className={styles.columns}>
        <div className={styles.panel}>
          <FeedbackForm />
        </div>
        <div className={styles.panel}>
          <LiveChat />
        </div>
      </div>
    </section>
  );
}
