import type { OrderLine } from '@keystore/contract';
import { formatEuro } from '../../lib/money.ts';
import styles from './pay-page.module.css';

/** The order's lines as priced when it was placed. */
export function OrderLines({ lines }: { lines: readonly OrderLine[] }) {
  return (
    <ul className={styles.lines} aria-label="Products in your order">
      {lines.map((line) => (
        <li key={line.gameId} className={styles.line}>
          <img src={line.image} alt="" width={48} height={64} className={styles.lineImage} />
          <div className={styles.lineInfo}>
            <p className={styles.lineTitle}>{line.title}</p>
            <p className={styles.lineMeta}>
              {line.platform} · {line.quantity} × {formatEuro(line.unitPrice)}
            </p>
          </div>
          <p className={styles.lineAmount}>{formatEuro(line.amount)}</p>
        </li>
      ))}
    </ul>
  );
}
