import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A folder of images under DATA_DIR whose names this store gives. Only names matching `names` are
 * ever read or removed, so no request path can lead out of the folder. A name is never reused, so
 * a URL never changes content and may be cached for good.
 */
export class ImageFolder {
  readonly folder: string;
  private readonly names: RegExp;

  constructor(folder: string, names: RegExp) {
    this.folder = folder;
    this.names = names;
  }

  /** Stores the bytes under a new name; fails if the name exists. */
  async write(file: string, bytes: Buffer): Promise<void> {
    if (!this.names.test(file)) throw new Error(`Not a name this folder gives: ${file}`);
    await mkdir(this.folder, { recursive: true });
    await writeFile(path.join(this.folder, file), bytes, { flag: 'wx' });
  }

  /** The bytes of a stored file, or undefined for a name this store never gives or a file that is gone. */
  async read(file: string): Promise<Buffer | undefined> {
    if (!this.names.test(file)) return undefined;
    try {
      return await readFile(path.join(this.folder, file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async remove(file: string | null | undefined): Promise<void> {
    if (file && this.names.test(file)) await rm(path.join(this.folder, file), { force: true });
  }
}
