import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { Claim } from '@keystore/contract';
import { messageOf } from '../../lib/api.ts';
import { CLAIM_ANSWER_HOURS, CLAIM_MESSAGE_MAX, CLAIM_REASON_LABELS, CLAIM_STATE_LABELS, claimRejectProblem } from '@keystore/contract/claim-rules';
import { byRule } from '../../lib/form-rules.ts';
import { Modal } from '../../ui/modal.tsx';
import { sellerClaimsQuery, useRejectClaim, useReplaceClaim } from './api.ts';
import { When } from './when.tsx';
import buttons from '../../ui/buttons.module.css';
import styles from './seller.module.css';

/** An open claim needs the seller; a refund cost it; a declined claim went its way. */
const STATE_TONES: Partial<Record<Claim['state'], 'good' | 'bad' | 'warn'>> = { open: 'warn', refunded: 'bad', declined: 'good' };

/**
 * Buyers' reports on the seller's keys (issue 24), those waiting for an answer first: the reason, the
 * buyer's message, the key masked and the time left. An open claim is answered by replacing the key or
 * rejecting the claim with a reason (Keystore then decides), each confirmed in a dialog.
 */
export function ClaimsSection({ readOnly }: { readOnly: boolean }) {
  const claims = useQuery(sellerClaimsQuery());
  const [replacing, setReplacing] = useState<Claim | null>(null);
  const [rejecting, setRejecting] = useState<Claim | null>(null);
  let body;
  if (claims.isPending) {
    body = (
      <p className={styles.muted} role="status">
        Loading…
      </p>
    );
  } else if (claims.isError) {
    body = (
      <p className={styles.problem} role="alert">
        {messageOf(claims.error, 'Could not load the claims. Please try again.')}
      </p>
    );
  } else if (claims.data.length === 0) {
    body = <p className={styles.muted}>No claims: no buyer has reported a problem with your keys.</p>;
  } else {
    const waiting = claims.data.filter((claim) => claim.state === 'open');
    body = (
      <>
        {waiting.length > 0 && (
          <p className={styles.attention}>
            {waiting.length} claim{waiting.length === 1 ? ' waits' : 's wait'} for your answer.
          </p>
        )}
        <ul className={styles.cards} aria-label="Claims on your keys">
          {[...waiting, ...claims.data.filter((claim) => claim.state !== 'open')].map((claim) => (
            <ClaimCard key={claim._id} claim={claim} readOnly={readOnly} onReplace={setReplacing} onReject={setRejecting} />
          ))}
        </ul>
      </>
    );
  }
  return (
    <>
      <h2 className={styles.subtitle}>Claims</h2>
      <p className={styles.note}>
        A buyer who finds a key does not work reports it here. Within {CLAIM_ANSWER_HOURS} hours, replace the key or reject the claim with your reason, which
        Keystore then looks at; without an answer the key’s price is refunded from your balance.
      </p>
      {body}
      {replacing && <ReplaceDialog claim={replacing} onClose={() => setReplacing(null)} />}
      {rejecting && <RejectDialog claim={rejecting} onClose={() => setRejecting(null)} />}
    </>
  );
}

interface ClaimCardProps {
  claim: Claim;
  readOnly: boolean;
  onReplace: (claim: Claim) => void;
  onReject: (claim: Claim) => void;
}

function ClaimCard({ claim, readOnly, onReplace, onReject }: ClaimCardProps) {
  const open = claim.state === 'open';
  return (
    <li className={styles.card}>
      <div className={styles.cardHead}>
        <h3 className={styles.cardTitle}>{claim.title}</h3>
        <span className={styles.badge} data-tone={STATE_TONES[claim.state]}>
          {CLAIM_STATE_LABELS[claim.state]}
        </span>
      </div>
      <dl className={styles.cardFacts}>
        <div>
          <dt>Reason</dt>
          <dd>{CLAIM_REASON_LABELS[claim.reason]}</dd>
        </div>
        <div>
          <dt>Key</dt>
          <dd className={styles.mono}>{claim.maskedKey ?? '—'}</dd>
        </div>
        <div>
          <dt>Reported</dt>
          <dd>
            <When iso={claim.createdAt} />
          </dd>
        </div>
        {open ? (
          <div>
            <dt>Answer by</dt>
            <dd>
              <When iso={claim.dueAt} />
            </dd>
          </div>
        ) : (
          claim.decidedAt && (
            <div>
              <dt>Decided</dt>
              <dd>
                <When iso={claim.decidedAt} />
              </dd>
            </div>
          )
        )}
      </dl>
      <p className={styles.quote}>
        <span className={styles.quoteLabel}>Buyer’s message: </span>
        {claim.message || <span className={styles.muted}>none</span>}
      </p>
      {claim.sellerMessage && (
        <p className={styles.quote}>
          <span className={styles.quoteLabel}>Your answer: </span>
          {claim.sellerMessage}
        </p>
      )}
      {claim.note && (
        <p className={styles.quote}>
          <span className={styles.quoteLabel}>Keystore: </span>
          {claim.note}
        </p>
      )}
      {open && !readOnly && (
        <div className={buttons.actions}>
          <button type="button" className={`${buttons.primary} ${buttons.small}`} aria-label={`Replace the key of ${claim.title}`} onClick={() => onReplace(claim)}>
            Replace the key
          </button>
          <button type="button" className={`${buttons.danger} ${buttons.small}`} aria-label={`Reject the claim on ${claim.title}`} onClick={() => onReject(claim)}>
            Reject
          </button>
        </div>
      )}
    </li>
  );
}

/** "Replace the key?": one of the offer's keys (or one the endpoint hands over) goes to the buyer. */
function ReplaceDialog({ claim, onClose }: { claim: Claim; onClose: () => void }) {
  const replace = useReplaceClaim();
  return (
    <Modal title={`Replace the key of ${claim.title}?`} busy={replace.isPending} onClose={onClose}>
      <div className={styles.stack}>
        <p className={styles.muted}>
          The buyer gets a new key in place of {claim.maskedKey ?? 'the reported one'}: one of the offer’s uploaded keys, or for declared stock one your endpoint
          hands over now.
        </p>
        {replace.isError && (
          <p className={styles.problem} role="alert">
            {messageOf(replace.error, 'The key could not be replaced. Please try again.')}
          </p>
        )}
        <div className={buttons.actions}>
          <button type="button" className={buttons.primary} disabled={replace.isPending} onClick={() => replace.mutate(claim._id, { onSuccess: onClose })}>
            {replace.isPending ? 'Replacing…' : 'Replace key'}
          </button>
          <button type="button" className={buttons.secondary} disabled={replace.isPending} onClick={onClose}>
            Cancel
          </button>
        </div>
      </div>
    </Modal>
  );
}

/** A rejection with the seller's reason, which the buyer and Keystore read; Keystore decides then. */
function RejectDialog({ claim, onClose }: { claim: Claim; onClose: () => void }) {
  const reject = useRejectClaim();
  const { register, handleSubmit, formState } = useForm<{ message: string }>({ defaultValues: { message: '' } });
  const problem = formState.errors.message?.message;
  const submit = handleSubmit(({ message }) => reject.mutate({ claimId: claim._id, message: message.trim() }, { onSuccess: onClose }));
  return (
    <Modal title={`Reject the claim on ${claim.title}?`} busy={reject.isPending} onClose={onClose}>
      <form className={styles.stack} onSubmit={submit} noValidate>
        <p className={styles.muted}>Keystore reads your reason with the buyer’s report and decides: the key may still be replaced or refunded.</p>
        <div className={styles.field}>
          <label htmlFor="claim-reject-reason">Your reason</label>
          <textarea
            id="claim-reject-reason"
            className={styles.prose}
            rows={4}
            maxLength={CLAIM_MESSAGE_MAX}
            {...register('message', { validate: byRule(claimRejectProblem) })}
            {...(problem ? { 'aria-invalid': true, 'aria-describedby': 'claim-reject-reason-error' } : {})}
          />
          {problem && (
            <span id="claim-reject-reason-error" className={styles.problem} role="alert">
              {problem}
            </span>
          )}
        </div>
        {reject.isError && (
          <p className={styles.problem} role="alert">
            {messageOf(reject.error, 'The claim could not be rejected. Please try again.')}
          </p>
        )}
        <div className={buttons.actions}>
          <button type="submit" className={buttons.danger} disabled={reject.isPending}>
            {reject.isPending ? 'Rejecting…' : 'Reject claim'}
          </button>
          <button type="button" className={buttons.secondary} disabled={reject.isPending} onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
