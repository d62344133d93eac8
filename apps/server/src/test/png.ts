// PNG files written by hand, for tests (server and browser journeys) that need an exact image
// without an encoder: a real photo to upload, or a file no encoder would make (a decompression bomb).
import { crc32, deflateSync } from 'node:zlib';

export interface RawImage {
  width: number;
  height: number;
  /** Bits per sample: 1 for black and white, 8 for ordinary colour. */
  bitDepth: 1 | 8;
  colour: 'greyscale' | 'rgb';
  /** The scanlines as PNG stores them before compression, each led by its filter byte (0: none). */
  rows: Buffer;
}

const COLOUR_TYPE = { greyscale: 0, rgb: 2 } as const;

/** The PNG file of the image: signature, header, the compressed rows and the end, each chunk with its CRC. */
export function encodePng(image: RawImage): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header.set([image.bitDepth, COLOUR_TYPE[image.colour], 0, 0, 0], 8); // deflate, no filter method, not interlaced
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(image.rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}
