// Requests and answers of gifts (issue 29): POST /api/orders' `gift`, GET /api/gifts/{id} and its keys.
import { z } from 'zod';
import { emailField } from './accounts.ts';
import { idField, safeText, trimmedRuled } from './fields.ts';
import { giftMessageProblem, giftMessages as m, giftNameProblem } from './gift-rules.ts';

/** POST /api/orders' `gift`: who gets the order's keys, and the buyer's words to them. */
export const giftRequestSchema = z.object({
  email: emailField,
  name: trimmedRuled(giftNameProblem, m.nameRequired),
  message: safeText().superRefine((value, context) => {
    const problem = giftMessageProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  }).default(''),
});
export type GiftRequest = z.input<typeof giftRequestSchema>;

export const giftIdParamsSchema = z.object({ id: idField(m.giftNotFound) });
/** `?token=`: the gift's signed link, mailed to its recipient. */
export const giftTokenQuerySchema = z.object({ token: z.string().min(1, m.giftNotFound).max(2000) });
export const giftKeysQuerySchema = giftTokenQuerySchema.extend({ keyId: z.string().regex(/^[0-9A-Za-z_-]{5,40}$/, m.giftNotFound).optional() });

/** GET /api/gifts/{id}: what the recipient sees; never the buyer's order or what it cost. */
export const giftSchema = z
  .object({
    _id: z.string(),
    name: z.string(),
    message: z.string(),
    /** The sender as the store knows them (a customer's username), or null for a guest. */
    from: z.string().nullable(),
    games: z.array(z.object({ gameId: z.string(), title: z.string(), image: z.string(), platform: z.string(), quantity: z.number().int() })),
    /** The keys, listed but not revealed (GET /api/gifts/{id}/keys does); none until the order is delivered. */
    keys: z.array(z.object({ purchaseId: z.string(), gameId: z.string(), title: z.string(), revealed: z.boolean() })),
    revealedAt: z.string().nullable(),
  })
  .meta({ id: 'Gift' });
export type Gift = z.infer<typeof giftSchema>;
