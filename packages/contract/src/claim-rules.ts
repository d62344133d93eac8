// Claims without zod (issue 24): a buyer reports a key that does not work; its seller replaces it or
// rejects the claim within a day, the owner decides what is left, and a seller's silence refunds the key.
// Imported by the schemas in claims.ts, the server, and the web app (`@keystore/contract/claim-rules`).

export const CLAIM_REASONS = ['already-redeemed', 'wrong-region', 'invalid-key', 'other'] as const;
export type ClaimReason = (typeof CLAIM_REASONS)[number];
/** open: the seller has a day to answer; rejected: the owner decides; the others are final. */
export const CLAIM_STATES = ['open', 'rejected', 'replaced', 'refunded', 'declined'] as const;
export type ClaimState = (typeof CLAIM_STATES)[number];
export const CLAIM_OUTCOMES = ['replace', 'refund', 'reject'] as const;
export type ClaimOutcome = (typeof CLAIM_OUTCOMES)[number];

/** A key can be reported within the terms' refund window of its delivery. */
export const CLAIM_WINDOW_DAYS = 30;
/** The seller's time to replace or reject a claim; after it the key's price is refunded from its balance. */
export const CLAIM_ANSWER_HOURS = 24;
export const CLAIM_MESSAGE_MAX = 1000;

export const CLAIM_REASON_LABELS: Record<ClaimReason, string> = {
  'already-redeemed': 'Already redeemed',
  'wrong-region': 'Wrong region',
  'invalid-key': 'Invalid key',
  other: 'Other',
};

export const CLAIM_STATE_LABELS: Record<ClaimState, string> = {
  open: 'Waiting for the seller',
  rejected: 'Waiting for Keystore',
  replaced: 'Replaced',
  refunded: 'Refunded',
  declined: 'Declined',
};

export const claimMessages = {
  claimNotFound: 'Claim not found',
  reasonInvalid: 'Reason must be already-redeemed, wrong-region, invalid-key or other',
  messageInvalid: `Message must be at most ${CLAIM_MESSAGE_MAX} characters`,
  rejectMessageInvalid: `Please say why, in 1 to ${CLAIM_MESSAGE_MAX} characters`,
  outcomeInvalid: 'Outcome must be replace, refund or reject',
  notRevealed: 'Reveal the key before reporting a problem with it',
  tooLate: `Keys can be reported within ${CLAIM_WINDOW_DAYS} days of delivery`,
  alreadyOpen: 'This key already has an open claim',
  alreadyDeclined: 'A claim on this key was already looked at and declined; please write to support',
  busy: 'This claim is being answered right now; please try again in a moment',
  decided: 'This claim is already decided',
  noReplacement: 'No replacement key could be had for this offer',
  houseKey: 'Keystore answers claims on its own keys: the owner decides them in the back office',
} as const;

/** A buyer's optional message, or the owner's optional note, once trimmed: at most 1,000 characters. */
export function claimMessageProblem(value: string): string | undefined {
  return value.trim().length > CLAIM_MESSAGE_MAX ? claimMessages.messageInvalid : undefined;
}

/** A seller's reason for rejecting a claim, once trimmed: 1 to 1,000 characters. */
export function claimRejectProblem(value: string): string | undefined {
  const text = value.trim();
  return text.length < 1 || text.length > CLAIM_MESSAGE_MAX ? claimMessages.rejectMessageInvalid : undefined;
}

/** Whether a claim still waits for someone: the seller (open) or Keystore (rejected by the seller). */
export function claimIsPending(state: ClaimState): boolean {
  return state === 'open' || state === 'rejected';
}
