CREATE TABLE "test_gateway_disputes" (
	"order_id" text PRIMARY KEY NOT NULL,
	"due_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "risk_checkouts" (
	"order_id" text PRIMARY KEY NOT NULL,
	"signals" jsonb NOT NULL,
	"identities" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP VIEW "public"."seller_facts";--> statement-breakpoint
DROP VIEW "public"."user_facts";--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_kind_check";--> statement-breakpoint
ALTER TABLE "order_events" DROP CONSTRAINT "order_events_kind_check";--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_status_check";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "placed_browser" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "authorised_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "risk_assessments" ADD COLUMN "identities" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "risk_checkouts" ADD CONSTRAINT "risk_checkouts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_in_review_idx" ON "orders" USING btree ("authorised_until") WHERE "orders"."status" = 'In review';--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_kind_check" CHECK ("ledger_entries"."kind" in ('sale', 'commission', 'release', 'refund', 'payout', 'fee', 'claim', 'chargeback', 'transfer', 'failover-extra', 'fraud-loss', 'dispute-fee', 'dispute-won'));--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_kind_check" CHECK ("order_events"."kind" in ('status', 'delivery', 'action'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check" CHECK ("orders"."status" in ('Awaiting payment', 'In review', 'Paid', 'Declined', 'Expired', 'Cancelled', 'Refunded', 'Disputed'));--> statement-breakpoint
CREATE VIEW "public"."known_addresses" AS (select "user_id", "ip" from "trusted_ips");--> statement-breakpoint
CREATE VIEW "public"."untrusted_sign_ins" AS (select "user_id", "purpose", "used_at" as "at" from "account_codes" where ("account_codes"."purpose" in ('new-device', 'reset-password') and "account_codes"."used_at" is not null));--> statement-breakpoint
CREATE VIEW "public"."seller_facts" AS (select "id", "user_id", "name", "status", "below_floor", "score", "hold_days" from "sellers");--> statement-breakpoint
CREATE VIEW "public"."user_facts" AS (select "id", "email", "username", "role", "blocked_at", "created_at" from "users");