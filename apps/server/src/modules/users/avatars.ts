import path from 'node:path';
import { ImageFolder } from '../../platform/image-folder.ts';
import { newId } from '../../platform/ids.ts';
import { toWebp } from '../../platform/images.ts';

/** Avatars are shown at most 128 px wide; 256 px keeps them sharp on high-density screens. */
export const AVATAR_SIZE = 256;

/** Names this store gives avatar files: `<userId>-<random>.webp`. Nothing else is ever read or removed. */
const AVATAR_FILE = /^[a-z0-9]{1,64}-[a-z0-9]{1,64}\.webp$/;

/** The avatar files under DATA_DIR/avatars. A new upload gets a new name, so a URL never changes content. */
export class AvatarFiles {
  readonly folder: string;
  private readonly files: ImageFolder;

  constructor(dataDir: string) {
    this.folder = path.join(dataDir, 'avatars');
    this.files = new ImageFolder(this.folder, AVATAR_FILE);
  }

  /** Re-encodes an upload to a square WebP and stores it; answers the new file name. Throws UnreadableImage. */
  async save(userId: string, upload: Buffer): Promise<string> {
    const webp = await toWebp(upload, { width: AVATAR_SIZE, height: AVATAR_SIZE, fit: 'cover' });
    const file = `${userId}-${newId(12)}.webp`;
    await this.files.write(file, webp);
    return file;
  }

  /** The bytes of a stored avatar, or undefined for a name this store never gives or a file that is gone. */
  read(file: string): Promise<Buffer | undefined> {
    return this.files.read(file);
  }

  remove(file: string | null | undefined): Promise<void> {
    return this.files.remove(file);
  }
}
