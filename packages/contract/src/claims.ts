// Claims (issue 24): a buyer reports a key that does not work; its seller replaces it or rejects the
// claim within a day, the owner decides what is left, and a seller's silence refunds the key from its balance.
import { z } from 'zod';
import { idField, safeText } from './fields.ts';

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
  decided: 'This claim is already decided',
  noReplacement: 'No replacement key could be had for this offer',
  houseKey: 'Keystore answers claims on its own keys: the owner decides them in the back office',
} as const;

export const claimRequestSchema = z.object({
  reason: z.enum(CLAIM_REASONS, { error: claimMessages.reasonInvalid }),
  message: safeText(claimMessages.messageInvalid).trim().max(CLAIM_MESSAGE_MAX, claimMessages.messageInvalid).default(''),
});
export type ClaimRequest = z.input<typeof claimRequestSchema>;

export const claimSchema = z
  .object({
    _id: z.string(),
    purchaseId: z.string(),
    orderId: z.string(),
    gameId: z.string(),
    title: z.string(),
    seller: z.string(),
    reason: z.enum(CLAIM_REASONS),
    message: z.string(),
    state: z.enum(CLAIM_STATES),
    /** The seller's reason for a rejection, and the owner's note on a decision. */
    sellerMessage: z.string().nullable(),
    note: z.string().nullable(),
    /** The key as the seller sees it: its last characters only. */
    maskedKey: z.string().optional(),
    createdAt: z.string(),
    /** When a seller's silence refunds the key. */
    dueAt: z.string(),
    decidedAt: z.string().nullable(),
  })
  .meta({ id: 'Claim' });
export type Claim = z.infer<typeof claimSchema>;
export const claimAnswerSchema = z.object({ claim: claimSchema }).meta({ id: 'ClaimAnswer' });
export const claimListSchema = z.array(claimSchema);
export const claimIdParamsSchema = z.object({ id: idField(claimMessages.claimNotFound) });
export const claimRejectSchema = z.object({
  message: safeText(claimMessages.rejectMessageInvalid).trim().min(1, claimMessages.rejectMessageInvalid).max(CLAIM_MESSAGE_MAX, claimMessages.rejectMessageInvalid),
});
export const claimDecisionSchema = z.object({
  outcome: z.enum(CLAIM_OUTCOMES, { error: claimMessages.outcomeInvalid }),
  note: safeText(claimMessages.messageInvalid).trim().max(CLAIM_MESSAGE_MAX, claimMessages.messageInvalid).default(''),
});
export const adminClaimsQuerySchema = z.object({ state: z.enum(CLAIM_STATES, { error: 'Unknown claim state' }).optional() });
