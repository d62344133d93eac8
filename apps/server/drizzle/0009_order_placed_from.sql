-- An order remembers the client address it was placed from (decision 016): what one address holds
-- unpaid is capped, so many throwaway accounts from one place cannot empty the shelf.
ALTER TABLE "orders" ADD COLUMN "placed_from" "inet";--> statement-breakpoint
CREATE INDEX "orders_awaiting_placed_from_idx" ON "orders" USING btree ("placed_from") WHERE "orders"."status" = 'Awaiting payment';
