// What a payment asks of the orders table on the usual path (issue 28): the move to Paid locks and
// answers the whole order, and the delivery works from that row. Before, the order was read three
// times before its keys were stored (the move, the delivery's claim, a re-read).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { freshDatabase } from '../../test/helper.ts';
import { statementLog, type StatementLog } from '../../test/statement-log.ts';
import { ordersTestApp, type OrdersTestApp } from './test-kit.ts';

let database: Database;
let log: StatementLog;
let t: OrdersTestApp;
beforeAll(async () => {
  database = await freshDatabase();
  log = await statementLog(database);
  t = await ordersTestApp({ database: log.testApp.database, beforeReady: log.testApp.beforeReady });
});
afterAll(async () => {
  await t?.close();
  await database?.close();
});

/** Statements that read or write the orders table itself (not its lines or events). */
const onOrders = (statement: string) => /(from|update|into) "?orders"?(\s|$)/i.test(statement);

describe('a payment on the usual path', () => {
  it('reads and moves its order once before the keys are stored, and once more to mark it delivered', async () => {
    const buyer = await t.buyer();
    const game = await t.gameWithStock(5);
    const placed = await t.placeOrder(buyer, [{ gameId: game, quantity: 1 }]);
    expect(placed.statusCode).toBe(201);
    const orderId = placed.json<{ order: { _id: string } }>().order._id;

    const { value: paid, statements } = await log.statementsOf(() => t.pay(buyer, orderId));
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'Paid', deliveryStatus: 'Delivered' });
    const keysStored = statements.findIndex((statement) => /insert into "product_keys"/i.test(statement));
    expect(keysStored).toBeGreaterThan(0);
    // Before the keys: the one move to Paid, which answers the row the delivery uses.
    expect(statements.slice(0, keysStored).filter(onOrders)).toHaveLength(1);
    // With the keys, in their transaction: the move to Delivered.
    expect(statements.slice(keysStored).filter(onOrders)).toHaveLength(1);
  });
});
