import path from 'node:path';
import sharp from 'sharp';
import { NEWS_COVER_HEIGHT, NEWS_COVER_WIDTH } from '@keystore/contract';
import type { Db } from '../../db/client.ts';
import { newId } from '../../platform/ids.ts';
import { ImageStore } from '../../platform/image-store.ts';
import { toWebp } from '../../platform/images.ts';
import { escapeXml, wrapWords } from '../../platform/svg-text.ts';

/** Where news covers are served from. */
export const NEWS_COVER_URL_PREFIX = '/media/news/';

/** Names this store gives cover files: `<random>.webp`. */
const COVER_FILE = /^[a-z0-9]{1,64}\.webp$/;

/** News covers in the database, always 1200 × 675 WebP re-encoded by the server. */
export class NewsCovers {
  readonly files: ImageStore;
  /** Where stores before the `images` table kept covers. */
  private readonly olderFolder: string;

  constructor(db: Db, dataDir: string) {
    this.files = new ImageStore(db, 'news', COVER_FILE);
    this.olderFolder = path.join(dataDir, 'news');
  }

  /** Decodes an image (upload, data URL or the AI's picture), stores it as WebP, answers the file name. Throws UnreadableImage. */
  async save(image: Buffer): Promise<string> {
    const webp = await toWebp(image, { width: NEWS_COVER_WIDTH, height: NEWS_COVER_HEIGHT, fit: 'cover' });
    const file = `${newId(20)}.webp`;
    await this.files.write(file, webp);
    return file;
  }

  /** Renders the offline cover of a title (an SVG drawn here, so sharp's SVG input is ours alone) and stores it. */
  async saveRendered(title: string): Promise<string> {
    const webp = await sharp(Buffer.from(titleCoverSvg(title))).webp({ quality: 82 }).toBuffer();
    const file = `${newId(20)}.webp`;
    await this.files.write(file, webp);
    return file;
  }

  /** The file name behind a cover URL this store gave, if that file exists. */
  async fileOf(url: string): Promise<string | undefined> {
    if (!url.startsWith(NEWS_COVER_URL_PREFIX)) return undefined;
    const file = url.slice(NEWS_COVER_URL_PREFIX.length);
    return (await this.files.exists(file)) ? file : undefined;
  }

  /** Moves the cover files of an older store in DATA_DIR/news into the database; answers how many. */
  importOlderFiles(): Promise<number> {
    return this.files.importFolder(this.olderFolder);
  }
}

export function coverUrlOf(file: string | null): string | null {
  return file ? `${NEWS_COVER_URL_PREFIX}${file}` : null;
}

/** A wide cover with the title set large over a gradient picked from the title, like the game covers. */
export function titleCoverSvg(title: string): string {
  let hash = 0;
  for (const char of title) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const hue = hash % 360;
  const hue2 = (hue + 50 + ((hash >> 9) % 70)) % 360;
  const lines = wrapWords(title, 28).slice(0, 4);
  const longest = Math.max(...lines.map((line) => line.length));
  // Bold DejaVu Sans is about 0.66 em per character: the longest line must fit the 1040 px column.
  const fontSize = Math.min(72, Math.floor(1040 / (longest * 0.66)));
  const top = NEWS_COVER_HEIGHT / 2 - (lines.length * fontSize * 1.2) / 2 + fontSize * 0.85;
  const text = lines.map((line, i) => `<text x="80" y="${Math.round(top + i * fontSize * 1.2)}" font-size="${fontSize}">${escapeXml(line)}</text>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${NEWS_COVER_WIDTH}" height="${NEWS_COVER_HEIGHT}" viewBox="0 0 ${NEWS_COVER_WIDTH} ${NEWS_COVER_HEIGHT}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,38%)"/><stop offset="1" stop-color="hsl(${hue2},75%,14%)"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>
<circle cx="1000" cy="140" r="220" fill="none" stroke="#fff" stroke-opacity="0.12" stroke-width="14"/>
<circle cx="1060" cy="560" r="140" fill="none" stroke="#fff" stroke-opacity="0.1" stroke-width="8"/>
<g font-family="DejaVu Sans, Verdana, sans-serif" font-weight="700" fill="#fff">${text}</g>
<text x="80" y="620" font-family="DejaVu Sans, Verdana, sans-serif" font-size="26" fill="#fff" fill-opacity="0.75">KEYSTORE NEWS</text>
</svg>`;
}
