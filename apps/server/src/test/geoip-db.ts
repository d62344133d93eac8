// A GeoLite2-style database for tests, written in the MaxMind DB format (maxmind.github.io/MaxMind-DB):
// an IPv4 search tree with one /24 network whose record names a city and a country, the data section,
// and the metadata. What the store reads through the `maxmind` library, as it reads GeoLite2-City.
import { writeFileSync } from 'node:fs';

type Value = string | number | Value[] | { [key: string]: Value };

/** One MaxMind DB data field: strings, unsigned 16/32-bit numbers, maps and arrays. */
function encode(value: Value): Buffer {
  const control = (type: number, size: number): Buffer => {
    if (size >= 29) throw new Error('only short fields here');
    // Types above 7 are "extended": a zero type, then the type minus 7 in a byte of its own.
    return type <= 7 ? Buffer.from([(type << 5) | size]) : Buffer.from([size, type - 7]);
  };
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([control(2, bytes.length), bytes]);
  }
  if (typeof value === 'number') {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(value);
    const trimmed = bytes.subarray(bytes.findIndex((byte) => byte !== 0) === -1 ? 4 : bytes.findIndex((byte) => byte !== 0));
    return Buffer.concat([control(6, trimmed.length), trimmed]);
  }
  if (Array.isArray(value)) return Buffer.concat([control(11, value.length), ...value.map(encode)]);
  const entries = Object.entries(value);
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([key, item]) => [encode(key), encode(item)])]);
}

/** Writes a database to `path` in which `network` (a /24 such as `203.0.113.0`) is in `city`, `country`. */
export function writeGeoIpDatabase(path: string, network: string, place: { city: string; country: string; isoCode?: string }): void {
  const octets = network.split('.').map(Number);
  const bits = octets.slice(0, 3).flatMap((octet) => Array.from({ length: 8 }, (_, i) => (octet >> (7 - i)) & 1));
  const nodeCount = bits.length;
  const data = encode({ city: { names: { en: place.city } }, country: { ...(place.isoCode ? { iso_code: place.isoCode } : {}), names: { en: place.country } } });
  const tree = Buffer.alloc(nodeCount * 6);
  const record = (node: number, side: number, value: number) => tree.writeUIntBE(value, node * 6 + side * 3, 3);
  bits.forEach((bit, node) => {
    const last = node === nodeCount - 1;
    // Down the network's path; off it, "no data" (the node count); at its end, the data (past the 16-byte separator).
    record(node, bit, last ? nodeCount + 16 : node + 1);
    record(node, 1 - bit, nodeCount);
  });
  const metadata = encode({
    node_count: nodeCount,
    record_size: 24,
    ip_version: 4,
    database_type: 'GeoLite2-City',
    languages: ['en'],
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: Math.floor(Date.now() / 1000),
    description: { en: 'Keystore test database' },
  });
  const marker = Buffer.concat([Buffer.from([0xab, 0xcd, 0xef]), Buffer.from('MaxMind.com')]);
  writeFileSync(path, Buffer.concat([tree, Buffer.alloc(16), data, marker, metadata]));
}
