-- The marketplace (issue 23, decision 029): sellers, their offers and uploaded keys, the ledger and payouts.
CREATE TABLE "ledger_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"seller_id" text,
	"order_id" text,
	"line_id" text,
	"payout_id" text,
	"release_at" timestamp with time zone,
	"releases" text,
	CONSTRAINT "ledger_entries_kind_check" CHECK ("ledger_entries"."kind" in ('sale', 'commission', 'release', 'refund', 'payout', 'transfer'))
);
--> statement-breakpoint
CREATE TABLE "ledger_lines" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"entry_id" text NOT NULL,
	"account" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	CONSTRAINT "ledger_lines_amount_check" CHECK ("ledger_lines"."amount_cents" <> 0)
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"seller_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "payouts_status_check" CHECK ("payouts"."status" in ('pending', 'paid')),
	CONSTRAINT "payouts_amount_check" CHECK ("payouts"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "offers" (
	"id" text PRIMARY KEY NOT NULL,
	"seller_id" text NOT NULL,
	"game_id" text NOT NULL,
	"net_price_cents" integer NOT NULL,
	"price_cents" integer NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offers_status_check" CHECK ("offers"."status" in ('active', 'paused')),
	CONSTRAINT "offers_prices_check" CHECK ("offers"."net_price_cents" > 0 and "offers"."price_cents" >= "offers"."net_price_cents")
);
--> statement-breakpoint
CREATE TABLE "seller_api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"seller_id" text NOT NULL,
	"name" text NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "seller_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"offer_id" text NOT NULL,
	"seller_id" text NOT NULL,
	"game_id" text NOT NULL,
	"serial_encrypted" text NOT NULL,
	"serial_hash" text NOT NULL,
	"library_hash" text NOT NULL,
	"masked" text NOT NULL,
	"state" text DEFAULT 'available' NOT NULL,
	"order_id" text,
	"line_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sold_at" timestamp with time zone,
	CONSTRAINT "seller_keys_state_check" CHECK ("seller_keys"."state" in ('available', 'reserved', 'sold')),
	CONSTRAINT "seller_keys_line_check" CHECK (("seller_keys"."state" = 'available') = ("seller_keys"."line_id" is null))
);
--> statement-breakpoint
CREATE TABLE "sellers" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"name" text NOT NULL,
	"contact_email" text NOT NULL,
	"country" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"commission_basis_points" integer,
	"commission_fixed_cents" integer,
	"hold_days" integer DEFAULT 14 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sellers_status_check" CHECK ("sellers"."status" in ('pending', 'active', 'suspended')),
	CONSTRAINT "sellers_hold_days_check" CHECK ("sellers"."hold_days" >= 0)
);
--> statement-breakpoint
DROP INDEX "order_lines_order_game_idx";--> statement-breakpoint
DROP INDEX "product_keys_game_serial_idx";--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "market_price_cents" integer;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "market_stock" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Every line placed before the marketplace came from the house's offer: the game's id with an 'h' in front.
ALTER TABLE "order_lines" ADD COLUMN "offer_id" text;--> statement-breakpoint
UPDATE "order_lines" SET "offer_id" = 'h' || "game_id";--> statement-breakpoint
ALTER TABLE "order_lines" ALTER COLUMN "offer_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "seller_id" text DEFAULT 'house' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "seller_name" text DEFAULT 'Keystore' NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "commission_cents" integer;--> statement-breakpoint
ALTER TABLE "ledger_lines" ADD CONSTRAINT "ledger_lines_entry_id_ledger_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_seller_id_sellers_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."sellers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_api_keys" ADD CONSTRAINT "seller_api_keys_seller_id_sellers_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."sellers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_keys" ADD CONSTRAINT "seller_keys_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_keys" ADD CONSTRAINT "seller_keys_seller_id_sellers_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."sellers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_keys" ADD CONSTRAINT "seller_keys_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sellers" ADD CONSTRAINT "sellers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_line_kind_idx" ON "ledger_entries" USING btree ("line_id","kind") WHERE "ledger_entries"."line_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_releases_idx" ON "ledger_entries" USING btree ("releases") WHERE "ledger_entries"."releases" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_payout_kind_idx" ON "ledger_entries" USING btree ("payout_id","kind") WHERE "ledger_entries"."payout_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_entries_seller_at_idx" ON "ledger_entries" USING btree ("seller_id","at");--> statement-breakpoint
CREATE INDEX "ledger_entries_unreleased_idx" ON "ledger_entries" USING btree ("release_at") WHERE "ledger_entries"."kind" = 'sale';--> statement-breakpoint
CREATE INDEX "ledger_lines_entry_idx" ON "ledger_lines" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "ledger_lines_account_idx" ON "ledger_lines" USING btree ("account");--> statement-breakpoint
CREATE INDEX "payouts_seller_idx" ON "payouts" USING btree ("seller_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "offers_seller_game_idx" ON "offers" USING btree ("seller_id","game_id");--> statement-breakpoint
CREATE INDEX "offers_game_idx" ON "offers" USING btree ("game_id");--> statement-breakpoint
CREATE UNIQUE INDEX "seller_api_keys_hash_idx" ON "seller_api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "seller_api_keys_seller_idx" ON "seller_api_keys" USING btree ("seller_id");--> statement-breakpoint
CREATE UNIQUE INDEX "seller_keys_game_serial_idx" ON "seller_keys" USING btree ("game_id","serial_hash");--> statement-breakpoint
CREATE INDEX "seller_keys_offer_state_idx" ON "seller_keys" USING btree ("offer_id","state");--> statement-breakpoint
CREATE INDEX "seller_keys_line_idx" ON "seller_keys" USING btree ("line_id") WHERE "seller_keys"."line_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "sellers_user_idx" ON "sellers" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sellers_name_lower_idx" ON "sellers" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "order_lines_order_offer_idx" ON "order_lines" USING btree ("order_id","offer_id");--> statement-breakpoint
CREATE INDEX "order_lines_seller_idx" ON "order_lines" USING btree ("seller_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_keys_game_serial_idx" ON "product_keys" USING btree ("game_id","serial_hash") WHERE "product_keys"."voided_at" is null;--> statement-breakpoint
-- The house seller: the supplier's feed, whose offers are the games rows themselves.
INSERT INTO "sellers" ("id", "user_id", "name", "contact_email", "country", "status", "hold_days") VALUES ('house', NULL, 'Keystore', '', 'EU', 'active', 0);--> statement-breakpoint
-- The ledger's invariant lives here, not in the caller: at commit, every entry a transaction wrote
-- lines for must have two lines or more summing to zero, or the whole transaction is refused.
CREATE FUNCTION "ledger_entry_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  total bigint;
  lines integer;
BEGIN
  SELECT coalesce(sum("amount_cents"), 0), count(*) INTO total, lines FROM "ledger_lines" WHERE "entry_id" = NEW."entry_id";
  IF total <> 0 OR lines < 2 THEN
    RAISE EXCEPTION 'ledger entry % does not balance: % lines summing to %', NEW."entry_id", lines, total USING ERRCODE = '23514', CONSTRAINT = 'ledger_entry_balanced';
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ledger_entry_balanced" AFTER INSERT ON "ledger_lines" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "ledger_entry_balanced"();--> statement-breakpoint
-- The ledger is append-only: a mistake is corrected by another entry, never by changing one.
CREATE FUNCTION "ledger_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the ledger is append-only' USING ERRCODE = '23514'; END $$;--> statement-breakpoint
CREATE TRIGGER "ledger_lines_append_only" BEFORE UPDATE OR DELETE ON "ledger_lines" FOR EACH ROW EXECUTE FUNCTION "ledger_append_only"();--> statement-breakpoint
CREATE TRIGGER "ledger_entries_append_only" BEFORE UPDATE OR DELETE ON "ledger_entries" FOR EACH ROW EXECUTE FUNCTION "ledger_append_only"();--> statement-breakpoint
CREATE TRIGGER "ledger_lines_no_truncate" BEFORE TRUNCATE ON "ledger_lines" FOR EACH STATEMENT EXECUTE FUNCTION "ledger_append_only"();--> statement-breakpoint
CREATE TRIGGER "ledger_entries_no_truncate" BEFORE TRUNCATE ON "ledger_entries" FOR EACH STATEMENT EXECUTE FUNCTION "ledger_append_only"();
