-- The supplier's quantity and our reservations become two numbers (decision 013): a sync writes
-- supplier_stock, open orders hold `reserved`, and `stock` (what can be sold) is their difference.
-- Until now `stock` was the supplier's quantity less what open orders held, so the supplier's
-- quantity is brought back by adding those reservations to it.
ALTER TABLE "games" RENAME COLUMN "stock" TO "supplier_stock";--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "reserved" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "games" SET "reserved" = held.quantity, "supplier_stock" = "supplier_stock" + held.quantity
FROM (
  SELECT l.game_id, sum(l.quantity)::int AS quantity
  FROM order_lines l JOIN orders o ON o.id = l.order_id
  WHERE o.status = 'Awaiting payment' OR (o.status = 'Paid' AND o.delivery_status <> 'Delivered')
  GROUP BY l.game_id
) held
WHERE held.game_id = "games"."id";--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "stock" integer GENERATED ALWAYS AS (greatest(supplier_stock - reserved, 0)) STORED NOT NULL;
