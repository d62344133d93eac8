ALTER TABLE "claims" ADD COLUMN "masked" text;--> statement-breakpoint
CREATE VIEW "public"."game_facts" AS (select "id", "supplier", "supplier_product_id", "title", "image", "platform", "price_cents", "supplier_price_cents", "stock", "popularity", "active", "hidden" from "games");--> statement-breakpoint
CREATE VIEW "public"."claim_outcomes" AS (select "seller_id", "state", "created_at" from "claims");--> statement-breakpoint
CREATE VIEW "public"."seller_postings" AS (select "seller_id", "kind", "at" from "ledger_entries" where "ledger_entries"."seller_id" is not null);--> statement-breakpoint
CREATE VIEW "public"."offer_stock" AS (select "id" as "offer_id", "seller_id", "game_id", (select count(*) from seller_keys k where k.offer_id = offers.id and k.state = 'available')::int as "available_keys" from "offers");--> statement-breakpoint
CREATE VIEW "public"."reservation_outcomes" AS (select "seller_id", "state", "provide_calls", "provide_seconds", "updated_at" from "seller_reservations");--> statement-breakpoint
CREATE VIEW "public"."sold_lines" AS (select "order_lines"."id", "order_lines"."order_id", "order_lines"."seller_id", "order_lines"."game_id", "order_lines"."title", "order_lines"."quantity", "order_lines"."unit_price_cents", "order_lines"."commission_cents", "orders"."paid_at", "orders"."delivered_at", ("order_lines"."refunded_at" is not null or "orders"."status" = 'Refunded') as "refunded" from "order_lines" inner join "orders" on "orders"."id" = "order_lines"."order_id" where "orders"."paid_at" is not null);--> statement-breakpoint
CREATE VIEW "public"."seller_facts" AS (select "id", "name", "status", "below_floor", "score", "hold_days" from "sellers");--> statement-breakpoint
CREATE VIEW "public"."user_facts" AS (select "id", "email", "username", "role", "blocked_at" from "users");--> statement-breakpoint
UPDATE "claims" c SET "masked" = (SELECT k.masked FROM seller_keys k JOIN product_keys p ON p.serial_hash = k.library_hash AND p.game_id = k.game_id
  WHERE p.id = c.key_id AND k.line_id = c.line_id LIMIT 1);
