CREATE TABLE "risk_assessments" (
	"order_id" text PRIMARY KEY NOT NULL,
	"rules_version" integer NOT NULL,
	"score" integer NOT NULL,
	"decision" text NOT NULL,
	"cancel_recommended" boolean NOT NULL,
	"facts" jsonb NOT NULL,
	"signals" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"verdict" text,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"decision_note" text,
	CONSTRAINT "risk_assessments_score_check" CHECK ("risk_assessments"."score" between 0 and 100),
	CONSTRAINT "risk_assessments_decision_check" CHECK ("risk_assessments"."decision" in ('accept', 'review', 'block')),
	CONSTRAINT "risk_assessments_verdict_check" CHECK ("risk_assessments"."verdict" is null or "risk_assessments"."verdict" in ('approved', 'cancelled')),
	CONSTRAINT "risk_assessments_decided_check" CHECK (("risk_assessments"."verdict" is null) = ("risk_assessments"."decided_at" is null))
);
--> statement-breakpoint
CREATE TABLE "risk_blocklist" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"value_hash" text NOT NULL,
	"hint" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "risk_blocklist_kind_check" CHECK ("risk_blocklist"."kind" in ('email', 'card', 'address', 'browser'))
);
--> statement-breakpoint
CREATE TABLE "risk_declines" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "risk_declines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"identity_hash" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "risk_declining_identities" (
	"identity_hash" text PRIMARY KEY NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "risk_disposable_domains" (
	"domain" text PRIMARY KEY NOT NULL,
	"added_by" text,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "risk_outcomes" (
	"order_id" text NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "risk_outcomes_order_id_kind_pk" PRIMARY KEY("order_id","kind"),
	CONSTRAINT "risk_outcomes_kind_check" CHECK ("risk_outcomes"."kind" in ('dispute', 'early-fraud-warning', 'fraud-refund'))
);
--> statement-breakpoint
CREATE TABLE "risk_rule_sets" (
	"version" integer PRIMARY KEY NOT NULL,
	"rules" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "risk_rule_sets_version_check" CHECK ("risk_rule_sets"."version" > 1)
);
--> statement-breakpoint
ALTER TABLE "risk_assessments" ADD CONSTRAINT "risk_assessments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_assessments" ADD CONSTRAINT "risk_assessments_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_blocklist" ADD CONSTRAINT "risk_blocklist_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_disposable_domains" ADD CONSTRAINT "risk_disposable_domains_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_outcomes" ADD CONSTRAINT "risk_outcomes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_rule_sets" ADD CONSTRAINT "risk_rule_sets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "risk_assessments_created_idx" ON "risk_assessments" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "risk_blocklist_value_idx" ON "risk_blocklist" USING btree ("value_hash");--> statement-breakpoint
CREATE INDEX "risk_declines_identity_idx" ON "risk_declines" USING btree ("identity_hash","at");--> statement-breakpoint
CREATE INDEX "risk_outcomes_at_idx" ON "risk_outcomes" USING btree ("at");