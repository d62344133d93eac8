ALTER TABLE "seller_reservation_events" ADD COLUMN "request_id" text;--> statement-breakpoint
ALTER TABLE "order_events" ADD COLUMN "request_id" text;