// Rate limits of the AI drafts. Each call is paid to the AI provider and each cover is a file on
// disk, so even an admin (or a stolen admin session) gets a budget: enough to redo a draft many
// times in an hour, not enough to run up a bill by script. See docs/decisions/016-abuse-limits.md.
import type { LimitRule } from '../../platform/limits.ts';

const HOUR = 60 * 60;

export const NEWS_LIMITS = {
  generateTextPerUser: { name: 'news-text-user', limit: 20, windowSeconds: HOUR },
  /** Several admins in one office share an address. */
  generateTextPerIp: { name: 'news-text-ip', limit: 40, windowSeconds: HOUR },
  generateImagePerUser: { name: 'news-image-user', limit: 20, windowSeconds: HOUR },
  generateImagePerIp: { name: 'news-image-ip', limit: 40, windowSeconds: HOUR },
} as const satisfies Record<string, LimitRule>;
