import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import type { Purchase } from '@keystore/contract';
import { useSession } from '../../lib/session.ts';
import { PageSkeleton } from '../../ui/page-skeleton.tsx';
import { claimsQuery } from './api.ts';
import { KeyProblem, latestClaims } from './key-problem.tsx';
import { LibraryWelcome } from './library-welcome.tsx';
import { RevealKey } from './reveal-key.tsx';
import { useDeliveryWatch, usePurchases } from './use-purchases.ts';
import styles from './library-page.module.css';

/**
 * The library (SPEC §2 Library): a welcome for visitors, 'My Library' for customers. While a stored
 * session is being checked it shows a placeholder of the same size, never the visitor's welcome.
 */
export function LibraryPage() {
  const { status } = useSession();
  if (status === 'restoring') return <LibrarySkeleton />;
  if (status === 'signed-out') return <LibraryWelcome />;
  return <MyLibrary />;
}

/**
 * The customer's purchased games, one card per key, with a way to report a key that does not work and
 * the state of that report; a key sent as a gift says so instead. Arriving from a payment (?order=<id>), a note says the keys are on their way
 * until the order is delivered and the list is fetched again.
 */
function MyLibrary() {
  const [params] = useSearchParams();
  const { data: purchases, error, refetch } = usePurchases();
  const delivering = useDeliveryWatch(params.get('order'), refetch);
  // Claims are few and only matter beside keys: asked for once there are keys to show them on.
  const claims = useQuery({ ...claimsQuery(), enabled: (purchases?.length ?? 0) > 0 });
  const claimOf = latestClaims(claims.data);

  return (
    <section className={styles.page} aria-labelledby="library-title">
      <h1 id="library-title" className={styles.title}>
        My Library
      </h1>
      {delivering && (
        <p className={styles.delivering} role="status">
          {delivering}
        </p>
      )}
      {error ? (
        <p className={styles.keyProblem} role="alert">
          Your library could not be loaded. Please try again.
        </p>
      ) : !purchases ? (
        <div className={`${styles.bone} ${styles.panelBone}`} aria-hidden="true" />
      ) : purchases.length === 0 ? (
        <div className={styles.empty}>
          <p className={styles.emptyText}>Your library is empty</p>
          <Link to="/store" className={styles.primary}>
            Browse Store
          </Link>
        </div>
      ) : (
        <ul className={styles.grid} aria-label="Your games">
          {purchases.map((purchase) => (
            <li key={purchase._id} className={styles.item}>
              <img src={purchase.product.image} alt="" width={240} height={320} className={styles.cover} loading="lazy" />
              <div className={styles.itemBody}>
                <h2 className={styles.itemTitle}>{purchase.product.title}</h2>
                <p className={styles.platform}>{purchase.product.platform}</p>
                <div className={styles.keyArea}>
                  {purchase.gift ? (
                    <SentGift gift={purchase.gift} />
                  ) : (
                    <>
                      <RevealKey purchaseId={purchase._id} title={purchase.product.title} platform={purchase.product.platform} />
                      <KeyProblem purchaseId={purchase._id} title={purchase.product.title} platform={purchase.product.platform} revealed={purchase.revealed} claim={claimOf.get(purchase._id)} />
                    </>
                  )}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const openedOn = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/**
 * A key the customer sent as a gift (issue 29): to whom, and whether they have opened it. The key is
 * its recipient's: no way to reveal it here, nor to report it (the recipient does, from the gift's page).
 */
function SentGift({ gift }: { gift: NonNullable<Purchase['gift']> }) {
  // `to` is "Name <e-mail>": the name leads, the address (long, unbroken) gets a line of its own.
  const [, name = gift.to, email] = /^(.*) <([^<>]+)>$/.exec(gift.to) ?? [];
  return (
    <div className={styles.sentGift}>
      <p className={styles.sentTo}>
        Sent as a gift to <strong>{name}</strong>
        {email && <span className={styles.sentEmail}> &lt;{email}&gt;</span>}
      </p>
      <p className={gift.revealedAt ? styles.opened : styles.notOpened}>
        {gift.revealedAt ? `Opened ${openedOn.format(new Date(gift.revealedAt))}` : 'Not opened yet'}
      </p>
    </div>
  );
}

function LibrarySkeleton() {
  return (
    <PageSkeleton className={styles.page} label="Library" status="Loading your library">
      <div className={`${styles.bone} ${styles.titleBone}`} />
      <div className={`${styles.bone} ${styles.panelBone}`} />
    </PageSkeleton>
  );
}
