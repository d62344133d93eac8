// Claims' requests and answers (issue 24); the rules, constants and texts are in claim-rules.ts.
import { z } from 'zod';
import { CLAIM_OUTCOMES, CLAIM_REASONS, CLAIM_STATES, claimMessages, claimMessageProblem, claimRejectProblem } from './claim-rules.ts';
import { idField, safeText } from './fields.ts';

/** A rule of claim-rules.ts as a refinement: its message, when it finds a problem. */
const byRule = (rule: (value: string) => string | undefined) => (value: string, context: z.core.$RefinementCtx) => {
  const problem = rule(value);
  if (problem) context.addIssue({ code: 'custom', message: problem });
};

export const claimRequestSchema = z.object({
  reason: z.enum(CLAIM_REASONS, { error: claimMessages.reasonInvalid }),
  message: safeText(claimMessages.messageInvalid).trim().superRefine(byRule(claimMessageProblem)).default(''),
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
  message: safeText(claimMessages.rejectMessageInvalid).trim().superRefine(byRule(claimRejectProblem)),
});
export const claimDecisionSchema = z.object({
  outcome: z.enum(CLAIM_OUTCOMES, { error: claimMessages.outcomeInvalid }),
  note: safeText(claimMessages.messageInvalid).trim().superRefine(byRule(claimMessageProblem)).default(''),
});
export const adminClaimsQuerySchema = z.object({ state: z.enum(CLAIM_STATES, { error: 'Unknown claim state' }).optional() });
