import { useQuery } from '@tanstack/react-query';
import { euroCents, netPriceProblem } from '@keystore/contract/seller-rules';
import { formatEuro } from '../../lib/money.ts';
import { useDebounced } from '../../lib/use-debounced.ts';
import { pricePreviewQuery } from './api.ts';
import styles from './seller.module.css';

/** Typing pauses this long before the game search or the price preview asks the server. */
export const TYPING_PAUSE_MS = 300;

/** What buyers will pay for the net price typed, by the seller's commission (GET /api/seller/price-preview), as it is typed. */
export function BuyerPrice({ id, netPrice }: { id: string; netPrice: string }) {
  const settled = useDebounced(netPrice, TYPING_PAUSE_MS);
  const valid = netPriceProblem(settled) === undefined;
  const preview = useQuery({ ...pricePreviewQuery(valid ? euroCents(settled)! / 100 : 0), enabled: valid });
  let text = 'Buyers pay your net price plus the store’s commission.';
  if (settled.trim() !== '' && !valid) text = netPriceProblem(settled)!;
  else if (valid && preview.data) text = `Buyers pay ${formatEuro(preview.data.price)} (commission ${formatEuro(preview.data.commission)})`;
  return (
    <span id={id} className={styles.note} aria-live="polite">
      {text}
    </span>
  );
}
