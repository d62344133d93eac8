import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { coverSvg } from '../modules/catalog/cover-art.ts';
import { titleCoverSvg } from '../modules/news/covers.ts';
import { escapeXml } from './svg-text.ts';

// Characters XML 1.0 cannot carry at all: a title from the supplier feed or an admin may still hold them.
const hostileTitle = 'Sale\u0000 \u0001ends\u001b \uFFFE\uFFFF<soon> & "now" \uD800 😀';

describe('text in SVG covers', () => {
  it('leaves out the characters XML cannot carry and escapes markup', () => {
    expect(escapeXml(hostileTitle)).toBe('Sale ends &#60;soon&#62; &#38; &#34;now&#34;  😀');
    expect(escapeXml('Tabs\tand\nlines')).toBe('Tabs\tand\nlines');
  });

  it('keeps a news cover and a game cover readable whatever the title holds', async () => {
    for (const svg of [titleCoverSvg(hostileTitle), coverSvg({ title: hostileTitle, platform: 'PC\u0000', type: 'Games\uFFFF' })]) {
      const { width } = await sharp(Buffer.from(svg)).metadata();
      expect(width).toBeGreaterThan(0);
      await expect(sharp(Buffer.from(svg)).png().toBuffer()).resolves.toBeInstanceOf(Buffer);
    }
  });
});
