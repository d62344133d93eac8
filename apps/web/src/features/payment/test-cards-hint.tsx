import { TEST_CARDS } from '@keystore/contract/constants';
import styles from './pay-page.module.css';

const grouped = (digits: string) => digits.replace(/(\d{4})(?=\d)/g, '$1 ');

/** This is the built-in test gateway: no real card is charged, and these numbers choose the outcome. */
export function TestCardsHint() {
  return (
    <aside className={styles.hint} aria-labelledby="test-cards-title">
      <h3 id="test-cards-title" className={styles.hintTitle}>
        Test payments
      </h3>
      <p className={styles.hintText}>No real card is charged. Use any future expiry date, any 3-digit CVC and any name.</p>
      <ul className={styles.hintList}>
        <li>
          <code>{grouped(TEST_CARDS.pays)}</code> pays
        </li>
        <li>
          <code>{grouped(TEST_CARDS.declined)}</code> is declined
        </li>
        <li>
          <code>{grouped(TEST_CARDS.insufficientFunds)}</code> has insufficient funds
        </li>
      </ul>
    </aside>
  );
}
