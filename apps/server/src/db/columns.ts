// Column helpers shared by the tables, which live with the modules that own them (modules/*/schema.ts,
// platform/schema.ts).
import { sql } from 'drizzle-orm';
import { customType, timestamp } from 'drizzle-orm/pg-core';

/** `'a', 'b'`: a list of known values for a CHECK constraint. */
export const listOf = (values: readonly string[]) => sql.raw(values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', '));

export const moment = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * PostgreSQL's xid8: the id of the transaction that wrote a row, by which a reader can follow a table
 * in the order its transactions ended (with `snapshot` below).
 */
export const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

/**
 * PostgreSQL's pg_snapshot (`xmin:xmax:xip,...`): which transactions had ended when it was taken. A
 * reader that follows a table in commit order keeps the snapshot it last read through, and next reads
 * the rows written by transactions visible in a newer snapshot but not in that one.
 */
export const snapshot = customType<{ data: string }>({ dataType: () => 'pg_snapshot' });

/** PostgreSQL's bytea as a Buffer from both drivers (PGlite answers a Uint8Array). */
export const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});
