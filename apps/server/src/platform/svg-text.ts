// Text in the SVG covers the store draws (games, news): no business rules, only typesetting.

/** Words laid into lines of at most `width` characters (a longer word gets a line of its own). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Characters XML 1.0 does not allow at all, not even escaped: control characters but tab and line
 * breaks, lone surrogates, U+FFFE and U+FFFF. One of them in a title would make the whole SVG unreadable.
 */
// eslint-disable-next-line no-control-regex -- the allowed control characters (tab, line breaks) are named on purpose
const NOT_XML = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text safe inside an SVG element or attribute: markup escaped, characters XML cannot carry left out. */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, '').replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
