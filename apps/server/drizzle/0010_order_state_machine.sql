-- One order state machine (decision 019): every change of an order's status or delivery status is
-- recorded in order_events, and the schema refuses unknown states and negative stock. Existing rows
-- are brought within the constraints first: a negative quantity (never written by the code since
-- decision 013, but a hand edit could have) becomes 0.
UPDATE "games" SET "supplier_stock" = 0 WHERE "supplier_stock" < 0;--> statement-breakpoint
UPDATE "games" SET "reserved" = 0 WHERE "reserved" < 0;--> statement-breakpoint
CREATE TABLE "order_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor" text NOT NULL,
	"reason" text,
	CONSTRAINT "order_events_kind_check" CHECK ("order_events"."kind" in ('status', 'delivery'))
);
--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_events_order_idx" ON "order_events" USING btree ("order_id","id");--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_supplier_stock_check" CHECK ("games"."supplier_stock" >= 0);--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_reserved_check" CHECK ("games"."reserved" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check" CHECK ("orders"."status" in ('Awaiting payment', 'Paid', 'Declined', 'Expired', 'Cancelled', 'Refunded'));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_delivery_status_check" CHECK ("orders"."delivery_status" in ('Pending', 'Delivered', 'Not delivered'));--> statement-breakpoint
-- Orders placed before the timeline existed get one event: their state as it is now.
INSERT INTO "order_events" ("order_id", "at", "kind", "from_status", "to_status", "actor", "reason")
SELECT "id", "created_at", 'status', NULL, "status", 'system:migration', 'state when the timeline began' FROM "orders";
