// What the news tests share: pictures to upload (multipart bodies come from test/multipart.ts).
import sharp from 'sharp';

/** A plain PNG of the given size. */
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
