import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Seller } from '@keystore/contract';
import { sellerMessages } from '@keystore/contract/seller-rules';
import { ApiError, messageOf } from '../../lib/api.ts';
import { openAuthDialog } from '../../lib/auth-dialog.ts';
import { formatEuro } from '../../lib/money.ts';
import { useSession } from '../../lib/session.ts';
import { ApiKeysSection } from './api-keys-section.tsx';
import { sellerQuery } from './api.ts';
import { ApplyForm } from './apply-form.tsx';
import { KeysSection } from './keys-section.tsx';
import { MoneySection } from './money-section.tsx';
import { OffersSection } from './offers-section.tsx';
import styles from './seller.module.css';

/**
 * The seller area (issue 23): a visitor is asked to sign in; a customer without a seller account gets
 * the application form; an applicant waits for the owner's approval; a seller gets the account's
 * figures and the offers, keys, money and API keys sections.
 */
export function SellerArea() {
  const session = useSession();
  // While a stored session is checked, nothing: a seller reloading the page never sees the sign-in prompt.
  if (session.status === 'restoring') return null;
  return (
    <section className={styles.page} aria-labelledby="seller-title">
      <h1 id="seller-title" className={styles.title}>
        Sell on Keystore
      </h1>
      {session.status === 'signed-in' ? (
        <SellerAccount />
      ) : (
        <div className={styles.panel}>
          <p className={styles.muted}>{sellerMessages.notSignedIn}.</p>
          <div className={styles.actions}>
            <button type="button" className={styles.primary} onClick={() => openAuthDialog('login')}>
              Sign In
            </button>
          </div>
        </div>
      )}
    </section>
  );
}

function SellerAccount() {
  const seller = useQuery(sellerQuery());
  if (seller.isPending) {
    return (
      <p className={styles.muted} role="status">
        Loading…
      </p>
    );
  }
  if (seller.isError) {
    if (seller.error instanceof ApiError && seller.error.status === 404) return <ApplyForm />;
    return (
      <p className={styles.problem} role="alert">
        {messageOf(seller.error, 'Could not load your seller account. Please try again.')}
      </p>
    );
  }
  if (seller.data.status === 'pending') {
    return (
      <div className={styles.panel}>
        <h2 className={styles.subtitle}>Application received</h2>
        <p className={styles.muted}>
          Thank you, {seller.data.name}. The store reviews every new seller; you can add offers once your account is approved.
        </p>
      </div>
    );
  }
  return <SellerDashboard seller={seller.data} />;
}

const TABS = [
  { id: 'offers', label: 'Offers' },
  { id: 'keys', label: 'Keys' },
  { id: 'money', label: 'Sales & payouts' },
  { id: 'api-keys', label: 'API keys' },
] as const;
type Tab = (typeof TABS)[number]['id'];

function SellerDashboard({ seller }: { seller: Seller }) {
  const [tab, setTab] = useState<Tab>('offers');
  const base = useId();
  const suspended = seller.status === 'suspended';
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
      </dl>
      <p className={styles.muted}>
        Commission: {seller.commission.percent} %{seller.commission.fixed > 0 ? ` + ${formatEuro(seller.commission.fixed)}` : ''} per key · money is held{' '}
        {seller.holdDays} days after a sale
      </p>
      {suspended && (
        <p className={styles.problem} role="alert">
          {sellerMessages.sellerSuspended}
        </p>
      )}
      <div role="tablist" aria-label="Seller sections" className={styles.tabs}>
        {TABS.map(({ id, label }) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`${base}-${id}-tab`}
            aria-controls={`${base}-${id}`}
            aria-selected={tab === id}
            tabIndex={tab === id ? 0 : -1}
            className={styles.tab}
            onClick={() => setTab(id)}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-${tab}`} aria-labelledby={`${base}-${tab}-tab`} className={styles.page}>
        {tab === 'offers' && <OffersSection readOnly={suspended} />}
        {tab === 'keys' && <KeysSection readOnly={suspended} />}
        {tab === 'money' && <MoneySection />}
        {tab === 'api-keys' && <ApiKeysSection readOnly={suspended} />}
      </div>
    </>
  );
}
