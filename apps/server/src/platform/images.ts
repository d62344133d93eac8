import sharp from 'sharp';

/** The upload is not a picture this server reads (or it is one too large to decode safely). */
export class UnreadableImage extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`Unreadable image: ${reason}`, options);
  }
}

/**
 * Raster formats accepted from users. Anything else sharp could open (SVG, PDF, raw pixel dumps)
 * is refused: vector and document formats bring their own renderers, and nobody needs them for a picture.
 */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);

/**
 * At most 50 megapixels are decoded (about 200 MB of pixels): far above any camera photo, well below
 * what a few kilobytes of a crafted "decompression bomb" could otherwise make the server allocate.
 */
const MAX_INPUT_PIXELS = 50_000_000;

export interface WebpOptions {
  width: number;
  height: number;
  /** `cover` crops to fill the box (avatars), `inside` keeps the whole picture within it. */
  fit?: 'cover' | 'inside';
  quality?: number;
}

/**
 * Decodes an uploaded image, turns it upright by its EXIF orientation, resizes it and re-encodes it
 * as WebP. Only pixels survive: sharp writes no EXIF, GPS, XMP or ICC metadata unless asked to.
 * Only the first frame of an animation is kept. Throws UnreadableImage for anything that is not a
 * whole, decodable picture in one of the accepted formats.
 */
export async function toWebp(input: Buffer, options: WebpOptions): Promise<Buffer> {
  const open = () => sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', pages: 1 });
  let format: string | undefined;
  try {
    ({ format } = await open().metadata());
  } catch (error) {
    throw new UnreadableImage('not an image', { cause: error });
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) throw new UnreadableImage(`format ${format ?? 'unknown'}`);
  try {
    return await open()
      .autoOrient()
      .resize(options.width, options.height, { fit: options.fit ?? 'cover', withoutEnlargement: options.fit === 'inside' })
      .webp({ quality: options.quality ?? 82 })
      .toBuffer();
  } catch (error) {
    // Truncated or corrupt data, or more pixels than MAX_INPUT_PIXELS, surfaces only when decoding.
    throw new UnreadableImage('cannot be decoded', { cause: error });
  }
}
