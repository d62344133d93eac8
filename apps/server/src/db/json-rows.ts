// Rows of several tables answered by one statement, as JSON (row_to_json, json_agg of a row), read
// back into the rows drizzle would have answered: one round trip where three were (decision 026).
import { getTableColumns } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * A table's row from the JSON PostgreSQL made of it, each column read as drizzle reads it from the
 * driver. For tables of text, integer, boolean, timestamptz and inet columns: JSON does not carry
 * bytea, a bigint beyond 2^53, or a jsonb column holding a bare string as the driver would.
 */
export function rowFromJson<T extends PgTable>(table: T, json: Record<string, unknown>): T['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = json[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T['$inferSelect'];
}
