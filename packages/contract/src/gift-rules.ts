// Gifts without zod (issue 29): an order bought for someone else, who gets a mail with the buyer's
// message and a link to reveal the keys. Imported by the schemas in gifts.ts, the server, and the web
// app (`@keystore/contract/gift-rules`).
import type { Problem } from './rules.ts';
import { hasUnsafeCharacters } from './text-rules.ts';

export const GIFT_NAME_MAX = 100;
export const GIFT_MESSAGE_MAX = 300;

export const giftMessages = {
  nameRequired: "Please give the recipient's name",
  nameTooLong: `The recipient's name can be at most ${GIFT_NAME_MAX} characters`,
  messageTooLong: `The message can be at most ${GIFT_MESSAGE_MAX} characters`,
  giftNotFound: 'This gift link is not valid or has expired. Ask the person who sent it for a new one.',
  giftOfOwnKey: 'This key was sent as a gift: only its recipient can reveal it.',
} as const;

export function giftNameProblem(value: string): Problem {
  if (value.trim() === '') return giftMessages.nameRequired;
  if (value.trim().length > GIFT_NAME_MAX || hasUnsafeCharacters(value)) return giftMessages.nameTooLong;
  return undefined;
}

export function giftMessageProblem(value: string): Problem {
  return value.length > GIFT_MESSAGE_MAX ? giftMessages.messageTooLong : undefined;
}
