import type { Seller, SellerScore } from '@keystore/contract';
import { formatEuro } from '../../lib/money.ts';
import { SCORE_PRIOR, SCORE_WINDOW_DAYS } from '@keystore/contract/seller-delivery-rules';
import styles from './seller.module.css';

/** A share (0 to 1) as a whole percent. */
const percent = (share: number) => `${Math.round(share * 100)} %`;
/** Seconds with a decimal below 10 ("4.5 s"), whole above ("42 s"). */
const seconds = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} s`;

/** The seller's figures: balances, counts, score; then its commission and hold. */
export function AccountSummary({ seller }: { seller: Seller }) {
  return (
    <>
      <dl className={styles.facts} aria-label="Your seller account">
        <div>
          <dt>Seller</dt>
          <dd>{seller.name}</dd>
        </div>
        <div>
          <dt>Available</dt>
          <dd>{formatEuro(seller.balance.available)}</dd>
        </div>
        <div>
          <dt>On hold</dt>
          <dd>{formatEuro(seller.balance.held)}</dd>
        </div>
        <div>
          <dt>Offers</dt>
          <dd>{seller.offers}</dd>
        </div>
        <div>
          <dt>Keys in stock</dt>
          <dd>{seller.keysInStock}</dd>
        </div>
        <div>
          <dt>Score</dt>
          <dd>
            {seller.score.value}
            <span className={styles.outOf}>/100</span>
          </dd>
        </div>
      </dl>
      <ScoreFigures score={seller.score} />
      <p className={styles.muted}>
        Commission: {seller.commission.percent} %{seller.commission.fixed > 0 ? ` + ${formatEuro(seller.commission.fixed)}` : ''} per key · money is held{' '}
        {seller.holdDays} days after a sale
      </p>
    </>
  );
}

/** What the score is made of, over the last 90 days: the four figures, and how many deliveries they count. */
function ScoreFigures({ score }: { score: SellerScore }) {
  return (
    <section className={styles.score} aria-labelledby="score-title">
      <h2 id="score-title" className={styles.scoreTitle}>
        How your score is made
      </h2>
      <dl className={styles.scoreFigures}>
        <div>
          <dt>Delivered on the first try</dt>
          <dd>{percent(score.onFirstTry)}</dd>
        </div>
        <div>
          <dt>Keys handed over within (p90)</dt>
          <dd>{score.p90ProvideSeconds > 0 ? seconds(score.p90ProvideSeconds) : '—'}</dd>
        </div>
        <div>
          <dt>Valid claims per 100 keys</dt>
          <dd>{score.claimsPer100.toFixed(1)}</dd>
        </div>
        <div>
          <dt>Refunds</dt>
          <dd>{score.refunds}</dd>
        </div>
      </dl>
      <p className={styles.note}>
        {score.deliveries === 0
          ? `No deliveries in the last ${SCORE_WINDOW_DAYS} days yet: a new seller starts at ${SCORE_PRIOR}.`
          : `From your ${score.deliveries} deliver${score.deliveries === 1 ? 'y' : 'ies'} of the last ${SCORE_WINDOW_DAYS} days, smoothed toward ${SCORE_PRIOR} while they are few. Buyers see it beside your name; at equal prices the higher score sells first.`}
      </p>
    </section>
  );
}
