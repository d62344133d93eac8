import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import type { Claim, ClaimOutcome, ClaimState } from '@keystore/contract';
import { messageOf } from '../../lib/api.ts';
import { CLAIM_MESSAGE_MAX, CLAIM_OUTCOMES, CLAIM_REASON_LABELS, CLAIM_STATE_LABELS, CLAIM_STATES, claimIsPending, claimMessageProblem } from '@keystore/contract/claim-rules';
import { byRule } from '../../lib/form-rules.ts';
import { Modal } from '../../ui/modal.tsx';
import { showToast } from '../../ui/toasts.tsx';
import { AdminPage, AdminTable, Time } from './admin-ui.tsx';
import { claimsQuery, useDecideClaim } from './api.ts';
import buttons from '../../ui/buttons.module.css';
import styles from './admin.module.css';

const isState = (value: string | null): value is ClaimState => CLAIM_STATES.some((state) => state === value);
/** A claim the seller rejected waits for the owner; a replaced or refunded key was a valid claim. */
const STATE_TONES: Partial<Record<ClaimState, 'good' | 'bad' | 'warn'>> = { rejected: 'warn', replaced: 'good', refunded: 'good' };
const OUTCOMES: Record<ClaimOutcome, { label: string; text: string }> = {
  replace: { label: 'Replace the key', text: 'A new key from the seller’s offer goes to the buyer’s library.' },
  refund: { label: 'Refund the key', text: 'The buyer gets the key’s price back, taken from the seller’s balance.' },
  reject: { label: 'Reject the claim', text: 'The buyer keeps the key; the claim is declined.' },
};

/**
 * Buyers' claims on keys (issue 24), by state: the reason and message, the seller's answer, the key
 * masked. The owner decides a claim still open or rejected by its seller: replace, refund or reject, with
 * a note the buyer reads.
 */
export function AdminClaimsPage() {
  const [params, setParams] = useSearchParams();
  const wanted = params.get('state');
  const state = isState(wanted) ? wanted : undefined;
  const claims = useQuery(claimsQuery(state));
  const [deciding, setDeciding] = useState<Claim | null>(null);

  const filter = (
    <div className={styles.field}>
      <label htmlFor="claims-state">Show</label>
      <select id="claims-state" value={state ?? ''} onChange={(event) => setParams(isState(event.target.value) ? { state: event.target.value } : {})}>
        <option value="">All</option>
        {CLAIM_STATES.map((option) => (
          <option key={option} value={option}>
            {CLAIM_STATE_LABELS[option]}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <AdminPage title="Claims" actions={filter}>
      <p className={styles.muted}>
        A seller has a day to replace a reported key or reject the claim; a rejected claim, or one on Keystore’s own keys, waits here for a decision.
      </p>
      {claims.isPending && (
        <p className={styles.muted} role="status">
          Loading…
        </p>
      )}
      {claims.isError && (
        <p className={styles.problem} role="alert">
          {messageOf(claims.error, 'Could not load the claims. Please try again.')}
        </p>
      )}
      {claims.data && (
        <>
          <AdminTable
            caption="Claims"
            captionHidden
            busy={claims.isPlaceholderData}
            columns={['Key', 'Seller', 'Reason', 'Messages', 'State', 'Action']}
          >
            {claims.data.map((claim) => (
              <ClaimRow key={claim._id} claim={claim} onDecide={setDeciding} />
            ))}
          </AdminTable>
          {claims.data.length === 0 && <p className={`${styles.muted} ${styles.panel}`}>No claim {state ? `is “${CLAIM_STATE_LABELS[state]}”` : 'yet'}.</p>}
        </>
      )}
      {deciding && <DecideDialog claim={deciding} onClose={() => setDeciding(null)} />}
    </AdminPage>
  );
}

/** A claim's row, kept to six columns so its state and Decide show without scrolling sideways. */
function ClaimRow({ claim, onDecide }: { claim: Claim; onDecide: (claim: Claim) => void }) {
  const pending = claimIsPending(claim.state);
  return (
    <tr>
      <th scope="row">
        {claim.title}
        {claim.maskedKey && <span className={`${styles.hint} ${styles.mono}`}>{claim.maskedKey}</span>}
        <Link to={`/admin/orders/${encodeURIComponent(claim.orderId)}`} className={`${styles.link} ${styles.mono} ${styles.answer}`}>
          {claim.orderId}
        </Link>
      </th>
      <td>{claim.seller}</td>
      <td>{CLAIM_REASON_LABELS[claim.reason]}</td>
      <td className={styles.wrap}>
        <span className={styles.answer}>
          <span className={styles.speaker}>Buyer: </span>
          {claim.message || '—'}
        </span>
        {claim.sellerMessage && (
          <span className={styles.answer}>
            <span className={styles.speaker}>Seller: </span>
            {claim.sellerMessage}
          </span>
        )}
        {claim.note && (
          <span className={styles.answer}>
            <span className={styles.speaker}>Note: </span>
            {claim.note}
          </span>
        )}
      </td>
      <td>
        <span className={styles.badge} data-tone={STATE_TONES[claim.state]}>
          {CLAIM_STATE_LABELS[claim.state]}
        </span>
        <span className={styles.hint}>
          Reported <Time iso={claim.createdAt} />
        </span>
        {pending && (
          <span className={styles.hint}>
            Due <Time iso={claim.dueAt} />
          </span>
        )}
        {!pending && claim.decidedAt && (
          <span className={styles.hint}>
            Decided <Time iso={claim.decidedAt} />
          </span>
        )}
      </td>
      <td>
        {pending && (
          <button type="button" className={`${buttons.secondary} ${buttons.small}`} aria-label={`Decide the claim on ${claim.title}`} onClick={() => onDecide(claim)}>
            Decide
          </button>
        )}
      </td>
    </tr>
  );
}

interface DecisionFields {
  outcome: ClaimOutcome;
  note: string;
}

/** The owner's decision: replace, refund or reject, and a note for the buyer; a refusal (no key left to replace with) stays in the dialog. */
function DecideDialog({ claim, onClose }: { claim: Claim; onClose: () => void }) {
  const decide = useDecideClaim();
  const { register, handleSubmit, formState } = useForm<DecisionFields>({ defaultValues: { outcome: 'replace', note: '' } });
  const problem = formState.errors.note?.message;
  const submit = handleSubmit(({ outcome, note }) =>
    decide.mutate(
      { id: claim._id, outcome, note: note.trim() },
      {
        onSuccess: ({ claim: decided }) => {
          showToast(`Claim on ${decided.title}: ${CLAIM_STATE_LABELS[decided.state]}.`);
          onClose();
        },
      },
    ),
  );
  return (
    <Modal title={`Decide the claim on ${claim.title}`} busy={decide.isPending} onClose={onClose}>
      <form className={styles.page} onSubmit={submit} noValidate>
        <p className={styles.muted}>
          {CLAIM_REASON_LABELS[claim.reason]}, reported of a key by {claim.seller}
          {claim.maskedKey ? ` (${claim.maskedKey})` : ''}.{claim.sellerMessage ? ` The seller says: “${claim.sellerMessage}”` : ''}
        </p>
        <fieldset className={`${styles.field} ${styles.choices}`}>
          <legend>Decision</legend>
          {CLAIM_OUTCOMES.map((outcome) => (
            <label key={outcome} className={styles.check}>
              <input type="radio" value={outcome} {...register('outcome')} />
              <span>
                {OUTCOMES[outcome].label}
                <span className={styles.hint}>{OUTCOMES[outcome].text}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className={styles.field}>
          <label htmlFor="claim-note">Note for the buyer (optional)</label>
          <textarea
            id="claim-note"
            rows={3}
            maxLength={CLAIM_MESSAGE_MAX}
            {...register('note', { validate: byRule(claimMessageProblem) })}
            {...(problem ? { 'aria-invalid': true, 'aria-describedby': 'claim-note-error' } : {})}
          />
          {problem && (
            <span id="claim-note-error" className={styles.problem} role="alert">
              {problem}
            </span>
          )}
        </div>
        {decide.isError && (
          <p className={styles.problem} role="alert">
            {messageOf(decide.error, 'The claim could not be decided. Please try again.')}
          </p>
        )}
        <div className={buttons.actions}>
          <button type="submit" className={buttons.primary} disabled={decide.isPending}>
            {decide.isPending ? 'Deciding…' : 'Decide'}
          </button>
          <button type="button" className={buttons.secondary} onClick={onClose} disabled={decide.isPending}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
