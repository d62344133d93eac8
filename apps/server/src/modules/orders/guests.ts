// Guests (issue 29): an order placed with an e-mail and no account. Its signed link opens the order's
// page, its keys and its payment for 30 days; what a guest may buy is capped by the owner's limits
// (PUT /api/admin/settings), beyond which the answer asks to sign in.
import { GUEST_LIMIT_DEFAULTS, orderMessages, type AdminSettings, type AdminSettingsPatch } from '@keystore/contract';
import type { Db } from '../../db/client.ts';
import { Conflict } from '../../platform/errors.ts';
import { readSetting, writeSetting } from '../../platform/settings.ts';
import type { SignedLinks } from '../../platform/signed-links.ts';
import type { Recipient } from '../../platform/mail/order-mails.ts';
import type { PlacedLine } from '../offers/ports.ts';
import { guestOrdersSince, type OrderRow } from './store.ts';

/** The owner's caps on a guest's orders: euro cents per order, copies of a title per order, orders per e-mail per 24 hours. */
export interface GuestLimits {
  maxOrderCents: number;
  maxCopies: number;
  ordersPerDay: number;
}

const SETTING = 'guest-limits';

export async function guestLimits(db: Db): Promise<GuestLimits> {
  const stored = (await readSetting(db, SETTING)) as Partial<GuestLimits> | undefined;
  return {
    maxOrderCents: stored?.maxOrderCents ?? GUEST_LIMIT_DEFAULTS.maxOrderEuro * 100,
    maxCopies: stored?.maxCopies ?? GUEST_LIMIT_DEFAULTS.maxCopies,
    ordersPerDay: stored?.ordersPerDay ?? GUEST_LIMIT_DEFAULTS.ordersPerDay,
  };
}

/** The limits as the back office's settings show them. */
export function guestSettings(limits: GuestLimits): Pick<AdminSettings, 'guestMaxOrder' | 'guestMaxCopies' | 'guestOrdersPerDay'> {
  return { guestMaxOrder: limits.maxOrderCents / 100, guestMaxCopies: limits.maxCopies, guestOrdersPerDay: limits.ordersPerDay };
}

/** Stores the limits an owner's settings change names (the others kept); answers them all. */
export async function saveGuestLimits(db: Db, patch: AdminSettingsPatch): Promise<GuestLimits> {
  const limits = await guestLimits(db);
  const next: GuestLimits = {
    maxOrderCents: patch.guestMaxOrder === undefined ? limits.maxOrderCents : Math.round(patch.guestMaxOrder * 100),
    maxCopies: patch.guestMaxCopies ?? limits.maxCopies,
    ordersPerDay: patch.guestOrdersPerDay ?? limits.ordersPerDay,
  };
  await writeSetting(db, SETTING, next);
  return next;
}

/**
 * Throws the 409 asking a guest to sign in when its e-mail has placed its orders of the day. Called in
 * the placement's transaction under the e-mail's placement lock, so two guest orders at once count
 * each other; before the unpaid caps, whose answer would not tell a guest what to do.
 */
export async function assertGuestMayOrder(tx: Db, email: string, limits: GuestLimits): Promise<void> {
  if ((await guestOrdersSince(tx, email, 24)) >= limits.ordersPerDay) throw new Conflict(orderMessages.guestTooManyOrders(limits.ordersPerDay));
}

/** Throws the 409 asking a guest to sign in when the order just taken has too many copies of a title, or costs too much. */
export function assertWithinGuestLimits(lines: Array<Pick<PlacedLine, 'gameId' | 'title' | 'quantity' | 'unitPriceCents'>>, limits: GuestLimits): void {
  const copies = new Map<string, { title: string; quantity: number }>();
  for (const line of lines) copies.set(line.gameId, { title: line.title, quantity: (copies.get(line.gameId)?.quantity ?? 0) + line.quantity });
  for (const { title, quantity } of copies.values()) if (quantity > limits.maxCopies) throw new Conflict(orderMessages.guestTooManyCopies(title, limits.maxCopies));
  const total = lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0);
  if (total > limits.maxOrderCents) throw new Conflict(orderMessages.guestOrderTooLarge(limits.maxOrderCents / 100));
}

/** An order's signed link: its token, and its page as a guest's mails link it. */
export class OrderLinks {
  private readonly links: SignedLinks;
  private readonly publicUrl: string;

  constructor(links: SignedLinks, publicUrl: string) {
    this.links = links;
    this.publicUrl = publicUrl;
  }

  token(orderId: string): Promise<string> {
    return this.links.sign('order', orderId);
  }

  /** Whether `token` opens this order. */
  opens(orderId: string, token: string | undefined): Promise<boolean> {
    return this.links.opens('order', orderId, token);
  }

  async page(orderId: string): Promise<string> {
    return `${this.publicUrl}/orders/${encodeURIComponent(orderId)}?token=${await this.token(orderId)}`;
  }

  /** A mail's recipient with the order's page when it is a guest's (an order without an account). */
  async recipient(order: Pick<OrderRow, 'id' | 'userId'>, buyer: Recipient | undefined): Promise<Recipient | undefined> {
    if (!buyer || order.userId) return buyer;
    return { ...buyer, orderPage: await this.page(order.id) };
  }
}
