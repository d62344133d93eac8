CREATE TABLE "ledger_empty_releases" (
	"sale_id" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_empty_releases" ADD CONSTRAINT "ledger_empty_releases_sale_id_ledger_entries_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;