import path from 'node:path';
import type { Db } from '../../db/client.ts';
import { newId } from '../../platform/ids.ts';
import { ImageStore, type StoredImage } from '../../platform/image-store.ts';
import { toWebp } from '../../platform/images.ts';

/** Avatars are shown at most 128 px wide; 256 px keeps them sharp on high-density screens. */
const AVATAR_SIZE = 256;

/** Names this store gives avatar files: `<userId>-<random>.webp`. Nothing else is ever read or removed. */
const AVATAR_FILE = /^[a-z0-9]{1,64}-[a-z0-9]{1,64}\.webp$/;

/** The avatars, in the database. A new upload gets a new name, so a URL never changes content. */
export class AvatarFiles {
  private readonly files: ImageStore;
  /** Where stores before the `images` table kept avatars. */
  private readonly olderFolder: string;

  constructor(db: Db, dataDir: string) {
    this.files = new ImageStore(db, 'avatars', AVATAR_FILE);
    this.olderFolder = path.join(dataDir, 'avatars');
  }

  /** Re-encodes an upload to a square WebP. Throws UnreadableImage. */
  encode(upload: Buffer): Promise<Buffer> {
    return toWebp(upload, { width: AVATAR_SIZE, height: AVATAR_SIZE, fit: 'cover' });
  }

  /** Stores an encoded avatar of the user under a new name and answers the name. `tx`: within the caller's transaction. */
  async store(userId: string, webp: Buffer, tx?: Db): Promise<string> {
    const file = `${userId}-${newId(12)}.webp`;
    await this.files.write(file, webp, 'image/webp', tx);
    return file;
  }

  /** A stored avatar, or undefined for a name this store never gives or an avatar that is gone. */
  read(file: string): Promise<StoredImage | undefined> {
    return this.files.read(file);
  }

  remove(file: string | null | undefined, tx?: Db): Promise<void> {
    return this.files.remove(file, tx);
  }

  /**
   * Removes every avatar file of the user (names begin with the user's id): the one shown, and any
   * that an upload or a replacement cut short left behind. `tx`: within the caller's transaction.
   */
  removeAllOf(userId: string, tx?: Db): Promise<number> {
    return this.files.removeStartingWith(`${userId}-`, tx);
  }

  /** Moves the avatar files of an older store in DATA_DIR/avatars into the database; answers how many. */
  importOlderFiles(): Promise<number> {
    return this.files.importFolder(this.olderFolder);
  }
}
