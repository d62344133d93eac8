import { useId, useState } from 'react';
import type { User } from '@keystore/contract';
import { MEMBERSHIP_TIERS } from '@keystore/contract/constants';
import { formatEuro } from '../../lib/money.ts';
import { InfoIcon } from './icons.tsx';
import styles from './membership-stats.module.css';

const whole = (amount: number) => formatEuro(amount).replace(/\.00$/, '');

/** Each tier with its range of total spend: 'up to €100', '€100–€250', …, '€800+'. */
const TIER_RANGES = MEMBERSHIP_TIERS.map((tier, index) => {
  const next = MEMBERSHIP_TIERS[index + 1];
  const range = !next ? `${whole(tier.from)}+` : tier.from === 0 ? `up to ${whole(next.from)}` : `${whole(tier.from)}–${whole(next.from)}`;
  return { name: tier.name, range };
});

/** The customer's level, games bought and money spent, from the account's real figures (DESIGN §5). */
export function MembershipStats({ user }: { user: User }) {
  return (
    <dl className={styles.stats}>
      <div className={styles.stat}>
        <dt className={styles.term}>
          Membership level <TiersTooltip />
        </dt>
        <dd className={styles.value}>{user.membership}</dd>
      </div>
      <div className={styles.stat}>
        <dt className={styles.term}>Games purchased</dt>
        <dd className={styles.value}>{user.totalGames}</dd>
      </div>
      <div className={styles.stat}>
        <dt className={styles.term}>Total spent</dt>
        <dd className={styles.value}>{formatEuro(user.totalSpent)}</dd>
      </div>
    </dl>
  );
}

/** The tiers by total spend (SPEC §4), shown on hover, focus or a tap; Escape hides them. */
function TiersTooltip() {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <span className={styles.tipAnchor} onMouseEnter={() => setOpen(true)} onMouseLeave={() => setOpen(false)}>
      <button
        type="button"
        className={styles.tipButton}
        aria-label="Membership levels"
        aria-describedby={id}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onClick={() => setOpen(true)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setOpen(false);
        }}
      >
        <InfoIcon />
      </button>
      <span id={id} role="tooltip" className={styles.tooltip} hidden={!open}>
        <span className={styles.tipTitle}>Levels by total spend</span>
        {TIER_RANGES.map((tier) => (
          <span key={tier.name} className={styles.tier}>
            <span>{tier.name}</span>
            <span className={styles.range}>{tier.range}</span>
          </span>
        ))}
      </span>
    </span>
  );
}
