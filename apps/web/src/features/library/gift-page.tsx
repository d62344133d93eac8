import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import type { Gift } from '@keystore/contract';
import { giftMessages } from '@keystore/contract/gift-rules';
import { ApiError, messageOf } from '../../lib/api.ts';
import { openAuthDialog } from '../../lib/auth-dialog.ts';
import { useSession } from '../../lib/session.ts';
import { PageSkeleton } from '../../ui/page-skeleton.tsx';
import { giftClaimsQuery, giftQuery, type GiftLink } from './api.ts';
import { KeyProblem, latestClaims } from './key-problem.tsx';
import { RevealKey } from './reveal-key.tsx';
import styles from './gift-page.module.css';

// Not in the contract's messages: only this page shows it, when the server said nothing (no answer, a 5xx).
const GIFT_LOAD_FAILED = 'Your gift could not be loaded. Please try again.';

/**
 * A gift reached by the link its recipient's mail carries (/gifts/:id?token=, issue 29), no account
 * needed: who sent it and their message, its games, and each key with 'Reveal Key' (one at a time, so
 * keys never revealed can still go back to their seller) and 'Report a problem' once revealed. Never
 * the buyer's order or what it cost: the gift's answer has neither.
 */
export function GiftPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const token = params.get('token');
  // A gift opens only by its link's token: without one there is nothing to ask the server.
  if (!token) return <GiftProblem />;
  return <GiftView key={`${id}:${token}`} link={{ giftId: id, token }} />;
}

function GiftView({ link }: { link: GiftLink }) {
  const { data: gift, error } = useQuery(giftQuery(link));
  const claims = useQuery({ ...giftClaimsQuery(link), enabled: (gift?.keys.length ?? 0) > 0 });
  const claimOf = latestClaims(claims.data);
  const { status } = useSession();

  if (error) return <GiftProblem error={error} />;
  if (!gift) return <GiftSkeleton />;
  const heading = gift.from ? `A gift from ${gift.from}` : 'A gift for you';

  return (
    <section className={styles.page} aria-labelledby="gift-title">
      <title>{`${heading} · Keystore`}</title>
      <header className={styles.hero}>
        <GiftIcon />
        <div className={styles.heroText}>
          <h1 id="gift-title" className={styles.title}>
            {heading}
          </h1>
          <p className={styles.for}>For {gift.name}</p>
        </div>
      </header>
      {gift.message && (
        <figure className={styles.message}>
          <blockquote className={styles.quote}>
            <p>{gift.message}</p>
          </blockquote>
          {gift.from && <figcaption className={styles.signature}>— {gift.from}</figcaption>}
        </figure>
      )}
      {gift.games.length > 0 ? (
        <ul className={styles.games} aria-label="Games in this gift">
          {gift.games.map((game) => (
            <li key={game.gameId} className={styles.game}>
              <img src={game.image} alt="" width={120} height={160} className={styles.cover} />
              <div className={styles.gameBody}>
                <h2 className={styles.gameTitle}>{game.title}</h2>
                <p className={styles.platform}>
                  {game.platform}
                  {game.quantity > 1 && ` · ${game.quantity} keys`}
                </p>
                <ul className={styles.keys} aria-label={`Keys of ${game.title}`}>
                  {keysOf(gift, game.gameId).map(({ purchaseId, revealed, name }) => (
                    <li key={purchaseId} className={styles.key}>
                      <RevealKey purchaseId={purchaseId} title={name} link={link} platform={game.platform} />
                      <KeyProblem purchaseId={purchaseId} title={name} platform={game.platform} revealed={revealed} claim={claimOf.get(purchaseId)} token={link.token} />
                    </li>
                  ))}
                </ul>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className={styles.panel}>This gift holds no keys any more. Ask the person who sent it.</p>
      )}
      <div className={styles.panel}>
        <p className={styles.note}>Keep this link: it is how you reach your keys. With a Keystore account on the e-mail this gift was sent to, you also find them in your library.</p>
        {status === 'signed-in' ? (
          <Link to="/library" className={styles.secondary}>
            Go to my library
          </Link>
        ) : (
          <button type="button" className={styles.secondary} onClick={() => openAuthDialog('signup')}>
            Create an account
          </button>
        )}
      </div>
    </section>
  );
}

/** A gift's keys of one game, each named for the buttons that reveal and report it (numbered when the gift holds several). */
function keysOf(gift: Gift, gameId: string) {
  const keys = gift.keys.filter((key) => key.gameId === gameId);
  return keys.map((key, n) => ({ ...key, name: keys.length > 1 ? `${key.title} (key ${n + 1} of ${keys.length})` : key.title }));
}

/** The gift could not be read: a link that does not open it (forged, expired, cut short) says so in the contract's words. */
function GiftProblem({ error }: { error?: Error }) {
  const linkInvalid = !error || (error instanceof ApiError && [400, 401, 404].includes(error.status));
  return (
    <section className={styles.closed} aria-labelledby="gift-title">
      <title>Your gift · Keystore</title>
      <h1 id="gift-title" className={styles.title}>
        Your gift
      </h1>
      <p role="alert">{linkInvalid ? giftMessages.giftNotFound : messageOf(error, GIFT_LOAD_FAILED)}</p>
      <Link to="/store" className={styles.primary}>
        Back to Store
      </Link>
    </section>
  );
}

function GiftIcon() {
  return (
    <svg className={styles.icon} width="48" height="48" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <rect x="3" y="8" width="18" height="4" rx="1" />
      <path d="M12 8v13M19 12v7a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2v-7" />
      <path d="M7.5 8a2.5 2.5 0 0 1 0-5C11 3 12 8 12 8s1-5 4.5-5a2.5 2.5 0 0 1 0 5" />
    </svg>
  );
}

function GiftSkeleton() {
  return (
    <PageSkeleton className={styles.page} label="Your gift" status="Loading your gift">
      <div className={`${styles.bone} ${styles.heroBone}`} />
      <div className={styles.bone} />
    </PageSkeleton>
  );
}
