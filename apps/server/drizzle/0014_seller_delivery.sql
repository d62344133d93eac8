CREATE TABLE "claims" (
	"id" text PRIMARY KEY NOT NULL,
	"key_id" text NOT NULL,
	"order_id" text NOT NULL,
	"line_id" text NOT NULL,
	"user_id" text,
	"seller_id" text NOT NULL,
	"game_id" text NOT NULL,
	"reason" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"seller_message" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"replaced_serial_sealed" text,
	"refund_cents" integer,
	CONSTRAINT "claims_reason_check" CHECK ("claims"."reason" in ('already-redeemed', 'wrong-region', 'invalid-key', 'other')),
	CONSTRAINT "claims_state_check" CHECK ("claims"."state" in ('open', 'rejected', 'replaced', 'refunded', 'declined'))
);
--> statement-breakpoint
CREATE TABLE "seller_reservation_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "seller_reservation_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"reservation_id" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"from_state" text,
	"to_state" text,
	"reason" text,
	"call_type" text,
	"http_status" integer,
	"error" text,
	"duration_ms" integer,
	CONSTRAINT "seller_reservation_events_call_check" CHECK ("seller_reservation_events"."call_type" is null or "seller_reservation_events"."call_type" in ('reserve', 'provide', 'cancel', 'ping'))
);
--> statement-breakpoint
CREATE TABLE "seller_reservations" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"line_id" text NOT NULL,
	"offer_id" text NOT NULL,
	"seller_id" text NOT NULL,
	"game_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_net_cents" integer NOT NULL,
	"state" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"provided_at" timestamp with time zone,
	"provide_seconds" integer,
	"provide_calls" integer DEFAULT 0 NOT NULL,
	"cancel_state" text,
	"cancel_attempts" integer DEFAULT 0 NOT NULL,
	"cancel_next_at" timestamp with time zone,
	CONSTRAINT "seller_reservations_state_check" CHECK ("seller_reservations"."state" in ('requested', 'reserved', 'provided', 'delivered', 'cancelled', 'expired', 'failed')),
	CONSTRAINT "seller_reservations_quantity_check" CHECK ("seller_reservations"."quantity" > 0)
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_kind_check";--> statement-breakpoint
DROP INDEX "ledger_entries_line_kind_idx";--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "delivery" text DEFAULT 'uploaded' NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "declared_stock" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "hidden_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "breaker_trips" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "failure_streak" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sellers" ADD COLUMN "webhook_url" text;--> statement-breakpoint
ALTER TABLE "sellers" ADD COLUMN "webhook_secret_sealed" text;--> statement-breakpoint
ALTER TABLE "sellers" ADD COLUMN "webhook_created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sellers" ADD COLUMN "score" integer DEFAULT 90 NOT NULL;--> statement-breakpoint
ALTER TABLE "sellers" ADD COLUMN "score_deliveries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sellers" ADD COLUMN "below_floor" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "seller_reservation_events" ADD CONSTRAINT "seller_reservation_events_reservation_id_seller_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."seller_reservations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_reservations" ADD CONSTRAINT "seller_reservations_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_reservations" ADD CONSTRAINT "seller_reservations_seller_id_sellers_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."sellers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "claims_open_key_idx" ON "claims" USING btree ("key_id") WHERE "claims"."state" in ('open', 'rejected');--> statement-breakpoint
CREATE INDEX "claims_seller_idx" ON "claims" USING btree ("seller_id","created_at");--> statement-breakpoint
CREATE INDEX "claims_user_idx" ON "claims" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "claims_due_idx" ON "claims" USING btree ("due_at") WHERE "claims"."state" = 'open';--> statement-breakpoint
CREATE INDEX "seller_reservation_events_reservation_idx" ON "seller_reservation_events" USING btree ("reservation_id","id");--> statement-breakpoint
CREATE INDEX "seller_reservations_line_idx" ON "seller_reservations" USING btree ("line_id");--> statement-breakpoint
CREATE INDEX "seller_reservations_order_idx" ON "seller_reservations" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "seller_reservations_seller_idx" ON "seller_reservations" USING btree ("seller_id","created_at");--> statement-breakpoint
CREATE INDEX "seller_reservations_offer_idx" ON "seller_reservations" USING btree ("offer_id","updated_at");--> statement-breakpoint
CREATE INDEX "seller_reservations_cancel_idx" ON "seller_reservations" USING btree ("cancel_next_at") WHERE "seller_reservations"."cancel_state" = 'due';--> statement-breakpoint
CREATE INDEX "offers_hidden_idx" ON "offers" USING btree ("hidden_until") WHERE "offers"."hidden_until" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_line_kind_idx" ON "ledger_entries" USING btree ("line_id","kind") WHERE "ledger_entries"."line_id" is not null and "ledger_entries"."kind" <> 'claim';--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_kind_check" CHECK ("ledger_entries"."kind" in ('sale', 'commission', 'release', 'refund', 'payout', 'fee', 'claim', 'transfer'));--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_delivery_check" CHECK ("offers"."delivery" in ('uploaded', 'declared') and "offers"."declared_stock" >= 0);