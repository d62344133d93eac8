CREATE TABLE "key_reveals" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "key_reveals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"key_id" text NOT NULL,
	"user_id" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "order_lines" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"position" integer NOT NULL,
	"game_id" text NOT NULL,
	"supplier_product_id" text NOT NULL,
	"title" text NOT NULL,
	"image" text,
	"platform" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"supplier_price_cents" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"status" text NOT NULL,
	"delivery_status" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text,
	"decline_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"supplier_order_id" text,
	"allocation_lease_until" timestamp with time zone,
	"allocation_attempts" integer DEFAULT 0 NOT NULL,
	"next_allocation_at" timestamp with time zone,
	"last_allocation_error" text,
	"delay_notice_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"order_id" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_events_provider_event_id_pk" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
CREATE TABLE "product_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"line_id" text NOT NULL,
	"position" integer NOT NULL,
	"game_id" text NOT NULL,
	"user_id" text,
	"serial_encrypted" text NOT NULL,
	"serial_hash" text NOT NULL,
	"demo" boolean DEFAULT false NOT NULL,
	"delivered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"voided_at" timestamp with time zone,
	"void_reason" text
);
--> statement-breakpoint
ALTER TABLE "key_reveals" ADD CONSTRAINT "key_reveals_key_id_product_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."product_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_reveals" ADD CONSTRAINT "key_reveals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_keys" ADD CONSTRAINT "product_keys_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_keys" ADD CONSTRAINT "product_keys_line_id_order_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."order_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_keys" ADD CONSTRAINT "product_keys_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_keys" ADD CONSTRAINT "product_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "key_reveals_key_idx" ON "key_reveals" USING btree ("key_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_lines_order_game_idx" ON "order_lines" USING btree ("order_id","game_id");--> statement-breakpoint
CREATE INDEX "orders_user_created_idx" ON "orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_awaiting_expiry_idx" ON "orders" USING btree ("expires_at") WHERE "orders"."status" = 'Awaiting payment';--> statement-breakpoint
CREATE INDEX "orders_undelivered_idx" ON "orders" USING btree ("next_allocation_at") WHERE "orders"."status" = 'Paid' and "orders"."delivery_status" <> 'Delivered';--> statement-breakpoint
CREATE UNIQUE INDEX "product_keys_game_serial_idx" ON "product_keys" USING btree ("game_id","serial_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "product_keys_line_position_idx" ON "product_keys" USING btree ("line_id","position");--> statement-breakpoint
CREATE INDEX "product_keys_user_idx" ON "product_keys" USING btree ("user_id","delivered_at");--> statement-breakpoint
CREATE INDEX "product_keys_order_idx" ON "product_keys" USING btree ("order_id");