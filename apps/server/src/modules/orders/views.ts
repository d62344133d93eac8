// Orders as the API answers them: the purchase-history entry of SPEC §3 with lines and payment details.
import { centsToEuro, ORDER_CURRENCY, riskMessages, type Order, type PurchaseHistoryEntry } from '@keystore/contract';
import { coverUrl } from '../catalog/ports.ts';
import type { OrderLineRow, OrderRow } from './store.ts';

/** The history's `items` text: "Title", or "Title × 2, Other Title" for several. */
function itemsText(lines: Pick<OrderLineRow, 'title' | 'quantity'>[]): string {
  return lines.map((line) => (line.quantity > 1 ? `${line.title} × ${line.quantity}` : line.title)).join(', ');
}

export function lineImage(line: Pick<OrderLineRow, 'image' | 'gameId'>): string {
  return line.image ?? coverUrl(line.gameId);
}

export function toOrder(row: OrderRow, lines: OrderLineRow[], keysPerLine: Map<string, number>): Order {
  return {
    _id: row.id,
    items: itemsText(lines),
    image: lines[0] ? lineImage(lines[0]) : '',
    date: row.createdAt.toISOString(),
    status: row.status,
    deliveryStatus: row.deliveryStatus,
    currency: ORDER_CURRENCY,
    amount: centsToEuro(row.amountCents),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    refundedAt: row.refundedAt?.toISOString() ?? null,
    paymentProvider: row.provider,
    declineReason: row.declineReason,
    statusNote: row.status === 'In review' ? riskMessages.inReviewNote : row.status === 'Disputed' ? riskMessages.orderDisputed : null,
    lines: lines.map((line) => ({
      gameId: line.gameId,
      title: line.title,
      image: lineImage(line),
      platform: line.platform,
      quantity: line.quantity,
      unitPrice: centsToEuro(line.unitPriceCents),
      amount: centsToEuro(line.unitPriceCents * line.quantity),
      keysDelivered: keysPerLine.get(line.id) ?? 0,
      offerId: line.offerId,
      seller: line.sellerName,
    })),
  };
}

/** The profile's history entry (SPEC §3) of an order. */
export function toHistoryEntry(order: Order): PurchaseHistoryEntry {
  const { _id, items, image, date, status, deliveryStatus, currency, amount } = order;
  return { _id, items, image, date, status, deliveryStatus, currency, amount };
}
