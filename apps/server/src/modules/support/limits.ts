// Rate limits of /api/support. A message mails our team and the sender, so the form is kept to what
// a person writes; the chat allows a brisk conversation but not a script that would run up the AI bill.
import type { LimitRule } from '../../platform/limits.ts';

const MINUTE = 60;

export const SUPPORT_LIMITS = {
  /** Form messages from one address (an office or household may share it). */
  feedbackPerIp: { name: 'support-feedback-ip', limit: 10, windowSeconds: 60 * MINUTE },
  /** Form messages from one sender: each one sends them an acknowledgement. */
  feedbackPerEmail: { name: 'support-feedback-email', limit: 5, windowSeconds: 60 * MINUTE },
  chatPerIp: { name: 'support-chat-ip', limit: 60, windowSeconds: 10 * MINUTE },
  /** A signed-in customer's chat across addresses (a script can rotate addresses, not accounts). */
  chatPerUser: { name: 'support-chat-user', limit: 60, windowSeconds: 10 * MINUTE },
} as const satisfies Record<string, LimitRule>;
