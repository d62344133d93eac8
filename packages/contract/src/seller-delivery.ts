// Requests and answers of sellers who hand over keys just in time (issue 24): the seller's signed webhook,
// its reservations and their attempts, the score; the rules, figures and texts are in seller-delivery-rules.ts.
import { z } from 'zod';
import { identityConfirmationFields } from './security.ts';
import { DECLARED_STOCK_MAX, OFFER_DELIVERIES } from './seller-rules.ts';
import { RESERVATION_STATES, sellerDeliveryMessages, WEBHOOK_TYPES, webhookUrlProblem } from './seller-delivery-rules.ts';

/** PUT /api/seller/webhook. */
export const webhookRequestSchema = z.object({
  url: z
    .string({ error: sellerDeliveryMessages.webhookUrlInvalid })
    .trim()
    .superRefine((value, context) => {
      const problem = webhookUrlProblem(value);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
  // The password (and authenticator code) typed again (issue 30): a stolen session cannot redirect the store's calls.
  ...identityConfirmationFields,
});
export type WebhookRequest = z.input<typeof webhookRequestSchema>;
/** The signing secret is in the answer once: to the first registration and to a rotation. */
export const webhookAnswerSchema = z
  .object({ url: z.string(), secret: z.string().optional(), createdAt: z.string().optional() })
  .meta({ id: 'SellerWebhook' });
export type SellerWebhook = z.infer<typeof webhookAnswerSchema>;
export const webhookSecretSchema = z.object({ secret: z.string() }).meta({ id: 'SellerWebhookSecret' });
export const webhookPingSchema = z.object({ ok: z.boolean(), status: z.number().int().nullable(), durationMs: z.number().int(), error: z.string().nullable() }).meta({ id: 'SellerWebhookPing' });
export type SellerWebhookPing = z.infer<typeof webhookPingSchema>;

/** The delivery fields of PATCH /api/seller/offers/{id}. */
export const offerDeliveryFields = {
  delivery: z.enum(OFFER_DELIVERIES, { error: sellerDeliveryMessages.deliveryInvalid }).optional(),
  declaredStock: z.number({ error: sellerDeliveryMessages.declaredStockInvalid }).int(sellerDeliveryMessages.declaredStockInvalid).min(0, sellerDeliveryMessages.declaredStockInvalid).max(DECLARED_STOCK_MAX, sellerDeliveryMessages.declaredStockInvalid).optional(),
};

export const reservationAttemptSchema = z
  .object({ at: z.string(), type: z.enum(WEBHOOK_TYPES), status: z.number().int().nullable(), error: z.string().nullable(), durationMs: z.number().int() })
  .meta({ id: 'ReservationAttempt' });
export const reservationMoveSchema = z
  .object({ at: z.string(), from: z.enum(RESERVATION_STATES).nullable(), to: z.enum(RESERVATION_STATES), reason: z.string().nullable() })
  .meta({ id: 'ReservationMove' });
export const reservationSchema = z
  .object({
    _id: z.string(),
    orderId: z.string(),
    offerId: z.string(),
    gameId: z.string(),
    title: z.string(),
    quantity: z.number().int(),
    unitNetPrice: z.number(),
    state: z.enum(RESERVATION_STATES),
    createdAt: z.string(),
    moves: z.array(reservationMoveSchema),
    attempts: z.array(reservationAttemptSchema),
  })
  .meta({ id: 'Reservation' });
export type Reservation = z.infer<typeof reservationSchema>;
export const reservationPageSchema = z
  .object({ items: z.array(reservationSchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() })
  .meta({ id: 'Reservations' });

export const sellerScoreSchema = z
  .object({
    /** 0 to 100, smoothed toward 90 so a new seller starts there. */
    value: z.number().int(),
    /** Share of deliveries whose keys came on the first try, 0 to 1. */
    onFirstTry: z.number(),
    /** The 90th percentile of seconds from a provide to the keys, declared stock only. */
    p90ProvideSeconds: z.number(),
    /** Claims found valid (the key replaced or refunded) per 100 keys sold. */
    claimsPer100: z.number(),
    /** Lines and keys refunded for the seller's fault. */
    refunds: z.number().int(),
    /** Deliveries counted (lines delivered plus failed reservations). */
    deliveries: z.number().int(),
  })
  .meta({ id: 'SellerScore' });
export type SellerScore = z.infer<typeof sellerScoreSchema>;

