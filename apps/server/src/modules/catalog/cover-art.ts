import { createHash } from 'node:crypto';
import { escapeXml, wrapWords } from '../../platform/svg-text.ts';

/** Where the generated cover of a game without supplier art is served. */
export function coverUrl(gameId: string): string {
  return `/media/covers/${gameId}.svg`;
}

/**
 * Draws a cover for a product the supplier gave no art for: a gradient picked from the title,
 * the platform and type as a badge and the title set in large type. Made here, nothing fetched.
 */
export function coverSvg(game: { title: string; platform: string; type: string }): string {
  const digest = createHash('sha256').update(game.title).digest();
  const hue = Math.round((digest[0]! / 255) * 360);
  const hue2 = (hue + 40 + Math.round((digest[1]! / 255) * 80)) % 360;
  const angle = digest[2]! % 2 === 0 ? 'x2="1" y2="1"' : 'x2="0" y2="1"';
  const lines = wrapWords(game.title, 14).slice(0, 4);
  // Bold Verdana is about 0.68 em per character: the longest line must fit the 336 px text column.
  const longest = Math.max(...lines.map((line) => line.length));
  const fontSize = Math.min(lines.length > 3 ? 34 : 40, Math.floor(336 / (longest * 0.68)));
  const top = 300 - (lines.length * fontSize * 1.15) / 2 + fontSize * 0.8;
  const text = lines
    .map((line, index) => `<text x="32" y="${Math.round(top + index * fontSize * 1.15)}" font-size="${fontSize}">${escapeXml(line)}</text>`)
    .join('');
  const rings = [0, 1, 2]
    .map((i) => `<circle cx="${300 + (digest[3 + i]! % 80)}" cy="${80 + (digest[6 + i]! % 120)}" r="${60 + i * 45}" fill="none" stroke="#fff" stroke-opacity="0.12" stroke-width="${10 - i * 3}"/>`)
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="600" viewBox="0 0 400 600" role="img" aria-label="${escapeXml(game.title)}">
<defs><linearGradient id="g" x1="0" y1="0" ${angle}><stop offset="0" stop-color="hsl(${hue},70%,38%)"/><stop offset="1" stop-color="hsl(${hue2},75%,16%)"/></linearGradient></defs>
<rect width="400" height="600" fill="url(#g)"/>${rings}
<rect x="32" y="32" rx="14" width="${Math.max(110, game.platform.length * 15 + 40)}" height="44" fill="#000" fill-opacity="0.35"/>
<text x="52" y="62" font-family="Verdana, DejaVu Sans, sans-serif" font-size="22" font-weight="700" fill="#fff">${escapeXml(game.platform)}</text>
<g font-family="Verdana, DejaVu Sans, sans-serif" font-weight="700" fill="#fff">${text}</g>
<text x="32" y="560" font-family="Verdana, DejaVu Sans, sans-serif" font-size="20" fill="#fff" fill-opacity="0.75">${escapeXml(game.type.toUpperCase())} · KEYSTORE</text>
</svg>`;
}
