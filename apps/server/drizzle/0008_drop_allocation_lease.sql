-- A delivery is owned by an advisory lock that dies with its process (decision 013), not by a lease
-- on the order row.
ALTER TABLE "orders" DROP COLUMN "allocation_lease_until";
