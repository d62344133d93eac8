CREATE TABLE "price_points" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "price_points_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"game_id" text NOT NULL,
	"price_cents" integer NOT NULL,
	"in_stock" boolean NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"written_by" "xid8" DEFAULT pg_current_xact_id() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_mail_opt_outs" (
	"user_id" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wishlist_alert_progress" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"through" "pg_snapshot" NOT NULL,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wishlist_items" (
	"user_id" text NOT NULL,
	"game_id" text NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	"price_at_add_cents" integer NOT NULL,
	"price_drop" boolean DEFAULT true NOT NULL,
	"target_price_cents" integer,
	"back_in_stock" boolean DEFAULT true NOT NULL,
	"last_alert_at" timestamp with time zone,
	"last_alert_price_cents" integer,
	CONSTRAINT "wishlist_items_user_id_game_id_pk" PRIMARY KEY("user_id","game_id"),
	CONSTRAINT "wishlist_items_target_check" CHECK ("wishlist_items"."target_price_cents" is null or "wishlist_items"."target_price_cents" > 0)
);
--> statement-breakpoint
DROP VIEW "public"."user_facts";--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "launcher" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "price_points" ADD CONSTRAINT "price_points_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_mail_opt_outs" ADD CONSTRAINT "alert_mail_opt_outs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wishlist_items" ADD CONSTRAINT "wishlist_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wishlist_items" ADD CONSTRAINT "wishlist_items_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_points_game_at_idx" ON "price_points" USING btree ("game_id","at");--> statement-breakpoint
CREATE INDEX "price_points_written_by_idx" ON "price_points" USING btree ("written_by");--> statement-breakpoint
CREATE INDEX "wishlist_items_game_idx" ON "wishlist_items" USING btree ("game_id");--> statement-breakpoint
CREATE INDEX "order_lines_game_idx" ON "order_lines" USING btree ("game_id","order_id");--> statement-breakpoint
CREATE VIEW "public"."price_moves" AS (select "id", "game_id", "price_cents", "in_stock", "at", "written_by" from "price_points");--> statement-breakpoint
CREATE VIEW "public"."user_facts" AS (select "id", "email", "username", "role", "blocked_at", "created_at", "email_verified_at" from "users");--> statement-breakpoint
-- What a game shows, as catalog/game-stock.ts's SHOWN_PRICE and SHOWN_STOCK say it (a test holds the two together).
CREATE FUNCTION "game_shown_price"(market_price integer, price integer, active boolean, stock integer) RETURNS integer
  LANGUAGE sql IMMUTABLE AS $$ select case when market_price is not null and (market_price < price or not active or stock = 0) then market_price else price end $$;--> statement-breakpoint
CREATE FUNCTION "game_shown_in_stock"(active boolean, stock integer, market_stock integer) RETURNS boolean
  LANGUAGE sql IMMUTABLE AS $$ select (case when active then stock else 0 end + market_stock) > 0 $$;--> statement-breakpoint
CREATE FUNCTION "record_price_point"() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  insert into price_points (game_id, price_cents, in_stock)
  values (new.id, game_shown_price(new.market_price_cents, new.price_cents, new.active, new.stock), game_shown_in_stock(new.active, new.stock, new.market_stock));
  return null;
end $$;--> statement-breakpoint
CREATE TRIGGER "games_price_point_added" AFTER INSERT ON "games" FOR EACH ROW EXECUTE FUNCTION record_price_point();--> statement-breakpoint
-- Most updates of a game (a purchase's reservation) move neither its shown price nor whether it has stock:
-- the condition is checked without calling the function, so they pay next to nothing.
CREATE TRIGGER "games_price_point_moved" AFTER UPDATE ON "games" FOR EACH ROW
  WHEN (game_shown_price(old.market_price_cents, old.price_cents, old.active, old.stock) IS DISTINCT FROM game_shown_price(new.market_price_cents, new.price_cents, new.active, new.stock)
     OR game_shown_in_stock(old.active, old.stock, old.market_stock) IS DISTINCT FROM game_shown_in_stock(new.active, new.stock, new.market_stock))
  EXECUTE FUNCTION record_price_point();--> statement-breakpoint
INSERT INTO "price_points" ("game_id", "price_cents", "in_stock")
  SELECT id, game_shown_price(market_price_cents, price_cents, active, stock), game_shown_in_stock(active, stock, market_stock) FROM games;
--> statement-breakpoint
-- Alerts are about changes after the wishlist existed: they follow the points from here (decision 037).
INSERT INTO "wishlist_alert_progress" ("id", "through") VALUES (1, pg_current_snapshot());
