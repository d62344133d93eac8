import { orderMessages, type GameListItem, type Purchase } from '@keystore/contract';
import type { Database, Db } from '../../db/client.ts';
import { NotFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { KeyRing } from '../../platform/key-ring.ts';
import type { CatalogService } from '../catalog/ports.ts';
import { KeyVault } from './key-vault.ts';
import {
  adoptKeys,
  liveKeysOfOrders,
  orderOfKey,
  claimableKey,
  deliveredHashes,
  keyIsLive,
  swapSerial,
  voidKey,
  insertKeys,
  keysPerLine,
  liveKeyCount,
  liveKeysOf,
  liveKeysOfOrder,
  liveKeysPerLine,
  ownedKey,
  recordReveal,
  voidKeysOfLines,
  voidUnrevealedKeysOfOrder,
  voidKeysOfOrder,
  type VoidedKey,
} from './store.ts';

/** A key as the supplier handed it over, ready to be stored for an order line. */
export interface DeliveredKey {
  orderId: string;
  lineId: string;
  position: number;
  gameId: string;
  userId: string | null;
  serial: string;
  demo: boolean;
}

/**
 * The library: the keys customers bought, stored encrypted, shown only to their owner. The orders
 * module stores and voids keys through this service, inside its own transactions.
 */
/** A gift its buyer sent (the gifts module's word, issue 29): its keys are listed as sent. */
export interface SentGift {
  orderId: string;
  to: string;
  revealedAt: Date | null;
}

export class LibraryService {
  private readonly database: Database;
  private readonly catalog: CatalogService;
  private readonly keys: KeyRing;
  private opened: KeyVault | undefined;

  /** `keys`: KEY_ENCRYPTION_KEY and the previous keys. Usable once `start` has run. */
  constructor(database: Database, catalog: CatalogService, keys: KeyRing) {
    this.database = database;
    this.catalog = catalog;
    this.keys = keys;
  }

  /** Opens the key vault (the serial-hash key lives in the database); fails the start if the keys given cannot. */
  async start(): Promise<void> {
    this.opened ??= await KeyVault.open(this.database.db, this.keys);
  }

  private get vault(): KeyVault {
    if (!this.opened) throw new Error('LibraryService.start() has not run');
    return this.opened;
  }

  /** One entry per live key of the customer, newest first, each with its game as the catalogue lists it. */
  async purchases(userId: string, sentGifts: SentGift[] = []): Promise<Purchase[]> {
    const own = await liveKeysOf(this.database.db, userId);
    // A gift's keys are its recipient's: the buyer's library shows them as sent, never their serials.
    const sent = sentGifts.length > 0 ? await liveKeysOfOrders(this.database.db, sentGifts.map((gift) => gift.orderId)) : [];
    const gifts = new Map(sentGifts.map((gift) => [gift.orderId, gift]));
    const keys = [...own, ...sent.filter((key) => !own.some((mine) => mine.id === key.id))].sort((a, b) => b.deliveredAt.getTime() - a.deliveredAt.getTime() || (a.id < b.id ? -1 : 1));
    const products = new Map<string, GameListItem>();
    await Promise.all(
      [...new Set(keys.map((key) => key.gameId))].map(async (gameId) => {
        const { description: _d, systemRequirements: _s, releaseDate: _r, ...item } = await this.catalog.game(gameId, { withHidden: true });
        products.set(gameId, item);
      }),
    );
    return keys.map((key) => {
      const gift = gifts.get(key.orderId);
      return {
        _id: key.id,
        product: products.get(key.gameId)!,
        orderId: key.orderId,
        purchasedAt: key.deliveredAt.toISOString(),
        revealed: key.revealed,
        ...(gift && { gift: { to: gift.to, revealedAt: gift.revealedAt?.toISOString() ?? null } }),
      };
    });
  }

  /** The serial of a live key, for its owner only (anyone else: NotFound); every reveal is recorded. */
  async revealKey(keyId: string, userId: string, ip: string): Promise<string> {
    const key = await ownedKey(this.database.db, keyId, userId);
    if (!key) throw new NotFound(orderMessages.keyNotFound);
    const serial = this.vault.decrypt(key.serialEncrypted, key.id);
    await recordReveal(this.database.db, { keyId, userId, ip });
    return serial;
  }

  /** The live keys of an order as its page lists them (issue 29): ids, games and lines, never a serial. */
  async listOrderKeys(orderId: string): Promise<Array<{ purchaseId: string; lineId: string; gameId: string; revealed: boolean }>> {
    const rows = await liveKeysOfOrder(this.database.db, orderId);
    return rows.map((row) => ({ purchaseId: row.id, lineId: row.lineId, gameId: row.gameId, revealed: row.revealed }));
  }

  /**
   * Reveals the live keys of an order, or the one `keyId` names, to whoever the orders module let open
   * it (its owner, or the holder of its signed link: `userId` null); every reveal is recorded, as a
   * library reveal is. A key of another order, or voided, is not found.
   */
  async revealOrderKeys(orderId: string, keyId: string | undefined, by: { userId: string | null; ip: string }): Promise<Array<{ purchaseId: string; lineId: string; gameId: string; key: string }>> {
    const rows = (await liveKeysOfOrder(this.database.db, orderId)).filter((row) => keyId === undefined || row.id === keyId);
    if (keyId !== undefined && rows.length === 0) throw new NotFound(orderMessages.keyNotFound);
    const keys = rows.map((row) => ({ purchaseId: row.id, lineId: row.lineId, gameId: row.gameId, key: this.vault.decrypt(row.serialEncrypted, row.id) }));
    for (const key of keys) await recordReveal(this.database.db, { keyId: key.purchaseId, userId: by.userId, ip: by.ip });
    return keys;
  }

  /** A guest's orders joined an account (issue 29): their keys are in its library from now on, in the caller's transaction. */
  adoptKeys(db: Db, orderIds: string[], userId: string): Promise<number> {
    return adoptKeys(db, orderIds, userId);
  }

  /** Stores keys encrypted; a key stored before (same line and position, or same serial) is skipped. */
  storeKeys(db: Db, keys: DeliveredKey[]): Promise<number> {
    return insertKeys(
      db,
      keys.map((key) => {
        const id = newId(20);
        return {
          id,
          orderId: key.orderId,
          lineId: key.lineId,
          position: key.position,
          gameId: key.gameId,
          userId: key.userId,
          serialEncrypted: this.vault.encrypt(key.serial, id),
          serialHash: this.vault.serialHash(key.serial),
          demo: key.demo,
        };
      }),
    );
  }

  /**
   * The live keys of an order, decrypted: for the receipt sent again and for the back office, which
   * shows them masked (an admin never sees a whole key, the orders module masks before answering).
   */
  async keysOfOrder(orderId: string): Promise<Array<{ lineId: string; gameId: string; serial: string; demo: boolean; revealed: boolean }>> {
    const rows = await liveKeysOfOrder(this.database.db, orderId);
    return rows.map((row) => ({ lineId: row.lineId, gameId: row.gameId, serial: this.vault.decrypt(row.serialEncrypted, row.id), demo: row.demo, revealed: row.revealed }));
  }

  keysPerLine(db: Db, orderId: string): Promise<Map<string, number>> {
    return keysPerLine(db, orderId);
  }

  voidKeysOfOrder(db: Db, orderId: string, reason: string): Promise<number> {
    return voidKeysOfOrder(db, orderId, reason);
  }

  /** Voids the keys of an order nobody revealed (a disputed payment's, issue 29); answers each voided key's line and hash. */
  voidUnrevealedKeysOfOrder(db: Db, orderId: string, reason: string): Promise<VoidedKey[]> {
    return voidUnrevealedKeysOfOrder(db, orderId, reason);
  }

  /** Voids the live keys of some lines of an order; answers each with whether its owner ever revealed it. */
  voidKeysOfLines(db: Db, orderId: string, lineIds: string[], reason: string): Promise<VoidedKey[]> {
    return voidKeysOfLines(db, orderId, lineIds, reason);
  }

  /** A serial encrypted as the library stores it, bound to `rowId` (a seller's uploaded key, its row). */
  seal(serial: string, rowId: string): string {
    return this.vault.encrypt(serial, rowId);
  }

  /** A customer's key as a claim reads it (issue 24), or undefined for a key that is not theirs. */
  /** A key as a claim reads it, if it is the customer's, or of the order whose link a guest holds. */
  claimableKey(db: Db, keyId: string, owner: { userId: string } | { orderId: string }) {
    return claimableKey(db, keyId, owner);
  }

  /** The order a key was delivered for. */
  orderOfKey(keyId: string): Promise<string | undefined> {
    return orderOfKey(this.database.db, keyId);
  }

  /** Whether a key is still in its owner's library (not voided). */
  async keyIsLive(db: Db, keyId: string): Promise<boolean> {
    return keyIsLive(db, keyId);
  }

  /** Voids one key whose price a claim gave back. */
  voidKey(db: Db, keyId: string, reason: string): Promise<boolean> {
    return voidKey(db, keyId, reason);
  }

  /**
   * A claim's replacement: `serial` becomes the key's (the purchase keeps its id), sealed for its row;
   * answers the serial it replaced as it was sealed, or undefined when the key is no longer live.
   */
  replaceSerial(db: Db, keyId: string, serial: string): Promise<string | undefined> {
    return swapSerial(db, keyId, this.vault.encrypt(serial, keyId), this.vault.serialHash(serial));
  }

  /** A serial sealed by `seal` for `rowId`. */
  unseal(stored: string, rowId: string): string {
    return this.vault.decrypt(stored, rowId);
  }

  /** Which of these serial hashes (serialHash) were ever delivered for the game: a seller may not sell them again. */
  deliveredHashes(gameId: string, hashes: string[]): Promise<Set<string>> {
    return deliveredHashes(this.database.db, gameId, hashes);
  }

  /** The library's keyed hash of a serial: the same serial always hashes the same. */
  serialHash(serial: string): string {
    return this.vault.serialHash(serial);
  }

  liveKeysPerLine(orderIds: string[]): Promise<Map<string, number>> {
    return liveKeysPerLine(this.database.db, orderIds);
  }

  liveKeyCount(userId: string): Promise<number> {
    return liveKeyCount(this.database.db, userId);
  }
}
