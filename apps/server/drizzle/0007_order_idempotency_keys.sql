-- An order remembers the Idempotency-Key it was placed with and a hash of its items (decision 015):
-- one order per key and customer, so a retried checkout finds its order instead of reserving again.
ALTER TABLE "orders" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "request_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_user_idempotency_key_idx" ON "orders" USING btree ("user_id","idempotency_key") WHERE "orders"."idempotency_key" is not null;