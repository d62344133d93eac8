import { useEffect, useRef, useState } from 'react';
import { activationFor } from '@keystore/contract/activation-rules';
import { FoldedActivationGuide } from '../../ui/activation-guide.tsx';
import { useForm, useWatch } from 'react-hook-form';
import type { Claim, ClaimReason } from '@keystore/contract';
import { messageOf } from '../../lib/api.ts';
import { CLAIM_ANSWER_HOURS, CLAIM_MESSAGE_MAX, CLAIM_REASON_LABELS, CLAIM_REASONS, CLAIM_STATE_LABELS, claimMessageProblem } from '@keystore/contract/claim-rules';
import { byRule } from '../../lib/form-rules.ts';
import { Modal } from '../../ui/modal.tsx';
import { useReportProblem } from './api.ts';
import styles from './library-page.module.css';

/** Each key's latest claim, by purchase: the list comes newest first. */
export function latestClaims(claims: Claim[] | undefined): Map<string, Claim> {
  const latest = new Map<string, Claim>();
  for (const claim of claims ?? []) if (!latest.has(claim.purchaseId)) latest.set(claim.purchaseId, claim);
  return latest;
}

/**
 * A key's problems (issue 24): its latest claim's state, and "Report a problem" once the key was revealed
 * (a problem can be reported only then), unless a claim on it waits for an answer or was declined (the
 * server takes no second claim then); a replaced key is a new key, and can be reported again. A guest
 * reports with the order's `token`.
 */
export function KeyProblem({ purchaseId, title, platform, revealed, claim, token }: { purchaseId: string; title: string; platform?: string | undefined; revealed: boolean; claim: Claim | undefined; token?: string }) {
  const [reporting, setReporting] = useState(false);
  const status = useRef<HTMLParagraphElement>(null);
  // The button that opened the form is gone once the claim is open: focus goes to the claim's state
  // instead, once both the form has closed and the claim is on screen (whichever comes last).
  const focusStatus = useRef(false);
  useEffect(() => {
    if (!focusStatus.current || reporting || !status.current) return;
    focusStatus.current = false;
    status.current.focus();
  }, [reporting, claim]);
  return (
    <div className={styles.problemBox}>
      {claim && (
        <>
          <p ref={status} tabIndex={-1} className={styles.claimState}>
            Reported problem: <strong>{CLAIM_STATE_LABELS[claim.state]}</strong>
          </p>
          {claim.sellerMessage && claim.state === 'rejected' && <p className={styles.claimNote}>The seller says: {claim.sellerMessage}</p>}
          {claim.note && <p className={styles.claimNote}>Keystore: {claim.note}</p>}
        </>
      )}
      {revealed && (!claim || claim.state === 'replaced') && (
        <button type="button" className={styles.report} onClick={() => setReporting(true)}>
          Report a problem <span className="visually-hidden">with the key of {title}</span>
        </button>
      )}
      {reporting && (
        <ReportDialog
          purchaseId={purchaseId}
          token={token}
          title={title}
          platform={platform}
          onClose={() => setReporting(false)}
          onReported={() => {
            focusStatus.current = true;
            setReporting(false);
          }}
        />
      )}
    </div>
  );
}

interface ReportFields {
  reason: ClaimReason;
  message: string;
}

/** The report: what is wrong (the contract's reasons) and, if the buyer wants, a message for the seller. */
function ReportDialog({ purchaseId, token, title, platform, onClose, onReported }: { purchaseId: string; token?: string | undefined; title: string; platform: string | undefined; onClose: () => void; onReported: () => void }) {
  const report = useReportProblem(purchaseId, token);
  const { register, handleSubmit, formState, control } = useForm<ReportFields>({ defaultValues: { reason: CLAIM_REASONS[0], message: '' } });
  const length = useWatch({ control, name: 'message' }).length;
  const problem = formState.errors.message?.message;
  const submit = handleSubmit(({ reason, message }) => report.mutate({ reason, message: message.trim() }, { onSuccess: onReported }));
  return (
    <Modal title={`Report a problem with ${title}`} busy={report.isPending} onClose={onClose}>
      <form className={styles.reportForm} onSubmit={submit} noValidate>
        <p className={styles.reportText}>
          The seller has {CLAIM_ANSWER_HOURS} hours to replace the key; if they do not, or disagree, Keystore decides and may refund it.
        </p>
        {/* Most keys that "do not work" were entered in another launcher or region: the guide first. */}
        {platform !== undefined && <FoldedActivationGuide guide={activationFor(platform)} />}
        <div className={styles.reportField}>
          <label htmlFor="claim-reason">What is wrong?</label>
          <select id="claim-reason" {...register('reason')}>
            {CLAIM_REASONS.map((reason) => (
              <option key={reason} value={reason}>
                {CLAIM_REASON_LABELS[reason]}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.reportField}>
          <label htmlFor="claim-message">Message (optional)</label>
          <textarea
            id="claim-message"
            rows={4}
            maxLength={CLAIM_MESSAGE_MAX}
            placeholder="What did the platform say when you redeemed it?"
            {...register('message', { validate: byRule(claimMessageProblem) })}
            aria-describedby={problem ? 'claim-message-error claim-message-count' : 'claim-message-count'}
            {...(problem ? { 'aria-invalid': true } : {})}
          />
          <span id="claim-message-count" className={styles.counter}>
            {length}/{CLAIM_MESSAGE_MAX}
          </span>
          {problem && (
            <span id="claim-message-error" className={styles.keyProblem} role="alert">
              {problem}
            </span>
          )}
        </div>
        {report.isError && (
          <p className={styles.keyProblem} role="alert">
            {messageOf(report.error, 'Your report could not be sent. Please try again.')}
          </p>
        )}
        <div className={styles.actions}>
          <button type="submit" className={styles.primary} disabled={report.isPending}>
            {report.isPending ? 'Sending…' : 'Send report'}
          </button>
          <button type="button" className={styles.secondary} disabled={report.isPending} onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
