// What the news tests share: multipart bodies as a browser sends them, and pictures to upload.
import sharp from 'sharp';

/** A multipart body as a browser's FormData would send it. */
export async function multipart(parts: Record<string, { data: Buffer; filename: string; type: string } | string>) {
  const form = new FormData();
  for (const [name, part] of Object.entries(parts)) {
    if (typeof part === 'string') form.append(name, part);
    else form.append(name, new Blob([new Uint8Array(part.data)], { type: part.type }), part.filename);
  }
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

export const png = (width: number, height: number, colour = '#3a7') => sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();

/** A photo carrying camera and GPS metadata, which must not survive the upload. */
export const phonePhoto = () =>
  sharp({ create: { width: 1600, height: 900, channels: 3, background: '#06c' } })
    .png()
    .withExifMerge({
      IFD0: { Make: 'PhoneMaker', Copyright: 'Alice' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 3/1' },
    })
    .toBuffer();
