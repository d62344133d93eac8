import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { Seller } from '@keystore/contract';
import { sellerMessages } from '@keystore/contract/seller-rules';
import { ApiError, messageOf } from '../../lib/api.ts';
import { openAuthDialog } from '../../lib/auth-dialog.ts';
import { useSession } from '../../lib/session.ts';
import { AccountSummary } from './account-summary.tsx';
import { ApiKeysSection } from './api-keys-section.tsx';
import { sellerQuery } from './api.ts';
import { ApplyForm } from './apply-form.tsx';
import { ClaimsSection } from './claims-section.tsx';
import { KeysSection } from './keys-section.tsx';
import { MoneySection } from './money-section.tsx';
import { OffersSection } from './offers-section.tsx';
import { ReservationsSection } from './reservations-section.tsx';
import { WebhookSection } from './webhook-section.tsx';
import buttons from '../../ui/buttons.module.css';
import styles from './seller.module.css';

/**
 * The seller area (issues 23, 24): a visitor is asked to sign in; a customer without a seller account
 * gets the application form; an applicant waits for the owner's approval; a seller gets the account's
 * figures and score, and the offers, keys, webhook, reservations, claims, money and API keys sections.
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
          <div className={buttons.actions}>
            <button type="button" className={buttons.primary} onClick={() => openAuthDialog('login')}>
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

/** The sections, each at its own address under /seller (the server's mails and notifications link to them). */
const SECTIONS = [
  { path: '', label: 'Offers' },
  { path: 'keys', label: 'Keys' },
  { path: 'webhook', label: 'Webhook' },
  { path: 'reservations', label: 'Reservations' },
  { path: 'claims', label: 'Claims' },
  { path: 'sales', label: 'Sales & payouts' },
  { path: 'api-keys', label: 'API keys' },
] as const;
type SectionPath = (typeof SECTIONS)[number]['path'];

const hrefOf = (path: SectionPath) => (path ? `/seller/${path}` : '/seller');

function SectionContent({ path, readOnly }: { path: SectionPath; readOnly: boolean }) {
  switch (path) {
    case '':
      return <OffersSection readOnly={readOnly} />;
    case 'keys':
      return <KeysSection readOnly={readOnly} />;
    case 'webhook':
      return <WebhookSection readOnly={readOnly} />;
    case 'reservations':
      return <ReservationsSection />;
    case 'claims':
      return <ClaimsSection readOnly={readOnly} />;
    case 'sales':
      return <MoneySection />;
    case 'api-keys':
      return <ApiKeysSection readOnly={readOnly} />;
  }
}

/**
 * The account's figures and its sections as tabs. Each tab is a link to the section's address (the page
 * is mounted at /seller/*), so a mail's link opens its section and Back goes to the one before; the
 * arrow keys, Home and End move between the tabs as in any tab list.
 */
function SellerDashboard({ seller }: { seller: Seller }) {
  const rest = useParams()['*'] ?? '';
  const navigate = useNavigate();
  const tabs = useRef<(HTMLAnchorElement | null)[]>([]);
  const base = useId();
  const current = SECTIONS.findIndex(({ path }) => path === rest.replace(/\/+$/, ''));
  // An address of no section goes to the first one. (Not with <Navigate>: the router lives in the first
  // chunk, and that component would join it there, past the first view's budget.)
  const unknown = current < 0;
  useEffect(() => {
    if (unknown) void navigate('/seller', { replace: true });
  }, [unknown, navigate]);
  // Where the tabs scroll sideways (a phone), the chosen one is scrolled into the strip; the page itself stays put.
  useEffect(() => {
    const tab = tabs.current[current];
    const strip = tab?.parentElement;
    if (tab && strip && strip.scrollWidth > strip.clientWidth) strip.scrollLeft = tab.offsetLeft - (strip.clientWidth - tab.offsetWidth) / 2;
  }, [current]);
  if (unknown) return null;
  const suspended = seller.status === 'suspended';
  const { path } = SECTIONS[current]!;

  const move = (event: KeyboardEvent<HTMLAnchorElement>) => {
    const last = SECTIONS.length - 1;
    const next = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const index = (next + SECTIONS.length) % SECTIONS.length;
    tabs.current[index]?.focus();
    void navigate(hrefOf(SECTIONS[index]!.path));
  };
  return (
    <>
      <AccountSummary seller={seller} />
      {suspended && (
        <p className={styles.problem} role="alert">
          {sellerMessages.sellerSuspended}
        </p>
      )}
      <div role="tablist" aria-label="Seller sections" className={styles.tabs}>
        {SECTIONS.map((section, index) => (
          <Link
            key={section.path}
            ref={(element) => {
              tabs.current[index] = element;
            }}
            to={hrefOf(section.path)}
            role="tab"
            id={`${base}-${section.path || 'offers'}-tab`}
            aria-controls={`${base}-panel`}
            aria-selected={index === current}
            tabIndex={index === current ? 0 : -1}
            className={styles.tab}
            onKeyDown={move}
          >
            {section.label}
          </Link>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-${path || 'offers'}-tab`} className={styles.page}>
        <SectionContent path={path} readOnly={suspended} />
      </div>
    </>
  );
}
