CREATE TABLE "price_points" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "price_points_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"game_id" text NOT NULL,
	"price_cents" integer NOT NULL,
	"in_stock" boolean NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "price_points" ADD CONSTRAINT "price_points_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_points_game_at_idx" ON "price_points" USING btree ("game_id","at");--> statement-breakpoint
CREATE INDEX "price_points_at_idx" ON "price_points" USING btree ("at");--> statement-breakpoint
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
