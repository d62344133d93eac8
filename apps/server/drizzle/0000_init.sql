CREATE TABLE "games" (
	"id" text PRIMARY KEY NOT NULL,
	"supplier" text NOT NULL,
	"supplier_product_id" text NOT NULL,
	"title" text NOT NULL,
	"image" text,
	"cover_image" text,
	"platform" text NOT NULL,
	"type" text NOT NULL,
	"genres" text[] NOT NULL,
	"region" text NOT NULL,
	"languages" text[] NOT NULL,
	"pegi" integer NOT NULL,
	"description" text,
	"system_requirements" jsonb,
	"supplier_price_cents" integer NOT NULL,
	"price_cents" integer NOT NULL,
	"original_price_cents" integer,
	"stock" integer NOT NULL,
	"popularity" integer DEFAULT 0 NOT NULL,
	"release_date" text,
	"released_at" timestamp with time zone NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"feed_hash" text NOT NULL,
	"supplier_updated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_runs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sync_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"supplier" text NOT NULL,
	"full" boolean NOT NULL,
	"since" timestamp with time zone,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"added" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"deactivated" integer DEFAULT 0 NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "games_supplier_product_idx" ON "games" USING btree ("supplier","supplier_product_id");--> statement-breakpoint
CREATE INDEX "games_updated_at_idx" ON "games" USING btree ("updated_at");