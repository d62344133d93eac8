ALTER TABLE "orders" ADD COLUMN "email" text;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_guest_idempotency_key_idx" ON "orders" USING btree ("email","idempotency_key") WHERE "orders"."user_id" is null and "orders"."idempotency_key" is not null;--> statement-breakpoint
CREATE INDEX "orders_guest_email_idx" ON "orders" USING btree ("email","created_at") WHERE "orders"."email" is not null;