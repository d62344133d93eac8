CREATE TABLE "ledger_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"seller_id" text,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"may_go_negative" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_kind_check" CHECK ("ledger_accounts"."kind" in ('payments', 'commission', 'payouts', 'seller-held', 'seller-available')),
	CONSTRAINT "ledger_accounts_seller_check" CHECK (("ledger_accounts"."seller_id" is null) = ("ledger_accounts"."kind" not like 'seller-%'))
);
--> statement-breakpoint
-- The store's accounts, and every account a line already names (a seller's held and available).
INSERT INTO "ledger_accounts" ("id", "kind", "seller_id", "may_go_negative") VALUES
  ('payments', 'payments', NULL, true), ('commission', 'commission', NULL, true), ('payouts', 'payouts', NULL, false);--> statement-breakpoint
INSERT INTO "ledger_accounts" ("id", "kind", "seller_id", "may_go_negative")
SELECT DISTINCT "account", CASE WHEN "account" LIKE '%:held' THEN 'seller-held' ELSE 'seller-available' END, split_part("account", ':', 2), "account" NOT LIKE '%:held'
FROM "ledger_lines" WHERE "account" LIKE 'seller:%'
ON CONFLICT DO NOTHING;--> statement-breakpoint
ALTER TABLE "ledger_lines" ADD CONSTRAINT "ledger_lines_account_ledger_accounts_id_fk" FOREIGN KEY ("account") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- An entry with fewer than two lines, none at all included, is refused at commit too: the lines'
-- trigger (0013) never fires for an entry written with no line. Both triggers ask one check.
CREATE FUNCTION "ledger_entry_check"("entry" text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  total bigint;
  lines integer;
BEGIN
  SELECT coalesce(sum("amount_cents"), 0), count(*) INTO total, lines FROM "ledger_lines" WHERE "entry_id" = "entry";
  IF total <> 0 OR lines < 2 THEN
    RAISE EXCEPTION 'ledger entry % does not balance: % lines summing to %', "entry", lines, total USING ERRCODE = '23514', CONSTRAINT = 'ledger_entry_balanced';
  END IF;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "ledger_entry_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM "ledger_entry_check"(NEW."entry_id"); RETURN NULL; END $$;--> statement-breakpoint
CREATE FUNCTION "ledger_entry_has_lines"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM "ledger_entry_check"(NEW."id"); RETURN NULL; END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ledger_entry_has_lines" AFTER INSERT ON "ledger_entries" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "ledger_entry_has_lines"();
