// The hostile inputs the API fuzz sends (security/input.test.ts): strings that have broken servers before
// (NUL, lone surrogates, direction marks, huge and empty), values of the wrong type, numbers at the
// edges, and raw bodies no client should send. A fixed list plus a seeded fast-check sample, so every
// run sends the same requests and a failure can be replayed.
import fc from 'fast-check';

const FUZZ_SEED = 20_261_112;

export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t\r\n',
  'x'.repeat(10_000),
  '\u0000',
  'abc\u0000def',
  '\u0001\u0007\u0008\u000b\u000c\u001b[31m\u007f',
  '\uD800',
  'a\uDFFFb',
  '\uFFFF\uFFFE',
  '\u202Eevil\u202C \u200F\u200E\u2066',
  '\u200B\u200D\uFEFF',
  '😀🎮👨‍👩‍👧',
  '𝕏'.repeat(300),
  'İß\u0130ﬃ',
  '１２３',
  'é'.normalize('NFD').repeat(50),
  "' OR '1'='1' --",
  '"; DROP TABLE users; --',
  '\\',
  '%00%ZZ%',
  '../../../etc/passwd',
  '<script>alert(1)</script>',
  '{"$gt":""}',
  '-1',
  '1e309',
  'NaN',
  '9'.repeat(400),
  '0x10',
  '__proto__',
];

/** Random strings of any code points (control and private-use characters included), the same on every run. */
export const SAMPLED_STRINGS: readonly string[] = fc.sample(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), { seed: FUZZ_SEED, numRuns: 12 });

/** JSON values of every other type, and numbers where only small whole ones make sense. */
export const WRONG_TYPES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -1e308,
  1e308,
  2 ** 53 + 1,
  -(2 ** 63),
  [],
  ['a', 1],
  {},
  { nested: { deeper: [null] } },
];

export const JSON_VALUES: readonly unknown[] = [...HOSTILE_STRINGS, ...SAMPLED_STRINGS, ...WRONG_TYPES];

/** Hostile values as they travel in a URL: each string percent-encoded, and escapes no encoder writes. */
export const URL_VALUES: readonly string[] = [
  ...[...HOSTILE_STRINGS, ...SAMPLED_STRINGS].filter((text) => text !== '').map(encodeUrlPart),
  '%00',
  '%ZZ',
  '%',
  '%ED%A0%80',
  '%FF%FE',
  '%C0%AE%C0%AE',
  '..%2F..%2F',
  '%0D%0ASet-Cookie:x=1',
];

/** Percent-encoding that also carries lone surrogates (encodeURIComponent throws on them) as their raw UTF-8 bytes. */
function encodeUrlPart(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text].map((char) => (/[\uD800-\uDFFF]/.test(char) ? '%ED%A0%80' : encodeURIComponent(char))).join('');
  }
}

/** A raw body and the content type it is sent with. */
export interface RawBody {
  contentType: string | undefined;
  payload: string | Buffer;
}

const boundary = 'xyz';

/** Bodies no client should send: broken JSON, other media types, malformed multipart. */
export const RAW_BODIES: readonly RawBody[] = [
  { contentType: 'application/json', payload: '' },
  { contentType: 'application/json', payload: '{' },
  { contentType: 'application/json', payload: '{"a":1}}' },
  { contentType: 'application/json', payload: "{'single':'quotes'}" },
  { contentType: 'application/json', payload: '"a string"' },
  { contentType: 'application/json', payload: 'null' },
  { contentType: 'application/json', payload: '[1,2,3]' },
  { contentType: 'application/json', payload: '{"__proto__":{"admin":true}}' },
  { contentType: 'application/json', payload: '{"constructor":{"prototype":{"admin":true}}}' },
  { contentType: 'application/json', payload: `${'['.repeat(5000)}${']'.repeat(5000)}` },
  { contentType: 'application/json', payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0x22, 0x7d]) },
  { contentType: 'application/json; charset=utf-16', payload: '{}' },
  { contentType: 'text/plain', payload: 'hello' },
  { contentType: 'application/xml', payload: '<a/>' },
  { contentType: 'application/x-www-form-urlencoded', payload: 'a=1&b=%00' },
  { contentType: 'totally/unknown;;;', payload: 'x' },
  { contentType: undefined, payload: 'no content type' },
  { contentType: 'multipart/form-data', payload: '--xyz\r\n\r\n--xyz--' },
  { contentType: `multipart/form-data; boundary=${boundary}`, payload: 'garbage after the boundary \u0000\u0001' },
  { contentType: `multipart/form-data; boundary=${'b'.repeat(5000)}`, payload: `--${'b'.repeat(5000)}\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\r\n` },
  {
    contentType: `multipart/form-data; boundary=${boundary}`,
    payload: `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG\r\n\u001a`,
  },
  {
    contentType: `multipart/form-data; boundary=${boundary}`,
    payload: `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nabc\u0000def\r\n--${boundary}--\r\n`,
  },
  { contentType: `multipart/form-data; boundary=${boundary}`, payload: `--${boundary}\r\nno headers here\r\n--${boundary}--\r\n` },
];

/** Authorization headers that are not a valid session. */
export const BAD_AUTHORIZATIONS: readonly string[] = [
  'Bearer ',
  'Bearer \u0000',
  'Bearer a.b.c',
  `Bearer ${'x'.repeat(10_000)}`,
  'Bearer eyJhbGciOiJub25lIn0.eyJ1c2VySWQiOiJhZG1pbiJ9.',
  'Basic YWRtaW46YWRtaW4=',
  'Bearer 😀',
];
