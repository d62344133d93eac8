CREATE TABLE "house_shelf" (
	"id" text PRIMARY KEY NOT NULL,
	"game_id" text NOT NULL,
	"serial_encrypted" text NOT NULL,
	"serial_hash" text NOT NULL,
	"state" text DEFAULT 'shelved' NOT NULL,
	"from_order_id" text NOT NULL,
	"line_id" text,
	"shelved_at" timestamp with time zone DEFAULT now() NOT NULL,
	"taken_at" timestamp with time zone,
	CONSTRAINT "house_shelf_state_check" CHECK ("house_shelf"."state" in ('shelved', 'taken', 'sold', 'burnt')),
	CONSTRAINT "house_shelf_line_check" CHECK (("house_shelf"."state" in ('taken', 'sold')) = ("house_shelf"."line_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "house_shelf" ADD CONSTRAINT "house_shelf_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "house_shelf_game_serial_idx" ON "house_shelf" USING btree ("game_id","serial_hash");--> statement-breakpoint
CREATE INDEX "house_shelf_shelved_idx" ON "house_shelf" USING btree ("game_id","shelved_at") WHERE "house_shelf"."state" = 'shelved';--> statement-breakpoint
CREATE INDEX "house_shelf_line_idx" ON "house_shelf" USING btree ("line_id") WHERE "house_shelf"."line_id" is not null;