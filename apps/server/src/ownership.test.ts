// The ownership rule (decisions 031 and 033), enforced rather than remembered: every table is written
// and read only by the module that declares it in its schema.ts. This test reads every non-test source
// of the server, finds each write (SQL text: insert into, update, delete from; drizzle: .insert(),
// .update(), .delete() of a table's variable) and each read (from, join; .from(), .innerJoin(),
// .leftJoin()), and fails on one whose table another module declares. Other modules read a module's
// data through its service or through the views it publishes as read models (pgView in its schema.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('.', import.meta.url).pathname;

/** The module a file belongs to: `modules/<area>/…` → area; `platform/…` → platform; anything else → its top folder. */
function ownerOf(file: string): string {
  const parts = relative(SRC, file).split('/');
  return parts[0] === 'modules' ? parts[1]! : parts[0]!;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' || entry.name === 'drizzle' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !/\.test\.ts$|test-kit\.ts$|-kit\.ts$/.test(entry.name) ? [path] : [];
  });
}

const files = sourceFiles(SRC);

/** Every table: its SQL name and its drizzle variable, with the module whose schema.ts declares it. */
function declaredTables() {
  const bySqlName = new Map<string, string>();
  const byVariable = new Map<string, { table: string; owner: string }>();
  for (const file of files.filter((path) => path.endsWith('/schema.ts'))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)) {
      bySqlName.set(match[2]!, ownerOf(file));
      byVariable.set(match[1]!, { table: match[2]!, owner: ownerOf(file) });
    }
  }
  return { bySqlName, byVariable };
}

export interface ForeignWrite {
  file: string;
  line: number;
  table: string;
  owner: string;
}

/** The writes of `file`'s text to tables another module declares. */
export function foreignWrites(file: string, text: string, tables = declaredTables()): ForeignWrite[] {
  const writer = ownerOf(file);
  const found: ForeignWrite[] = [];
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  const note = (index: number, table: string, owner: string | undefined) => {
    if (owner !== undefined && owner !== writer) found.push({ file: relative(SRC, file), line: lineOf(index), table, owner });
  };
  for (const match of text.matchAll(/\b(?:insert\s+into|update|delete\s+from)\s+([a-z_][a-z0-9_]*)\b/gi)) {
    const table = match[1]!.toLowerCase();
    note(match.index, table, tables.bySqlName.get(table));
  }
  for (const match of text.matchAll(/\.(?:insert|update|delete)\(\s*(\w+)\s*\)/g)) {
    const table = tables.byVariable.get(match[1]!);
    if (table) note(match.index, table.table, table.owner);
  }
  return found;
}

/**
 * The tables of other modules `file` reads in SQL text (`from` / `join` a table, or its variable) and in
 * drizzle (`.from()`, `.innerJoin()`, `.leftJoin()` of a table's variable), once each, as `file: table`.
 */
export function foreignReads(file: string, source: string, tables = declaredTables()): string[] {
  const reader = ownerOf(file);
  // Prose says "from users" too: comments are not read.
  const text = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found = new Set<string>();
  const note = (table: string | undefined, owner: string | undefined) => {
    if (table && owner !== undefined && owner !== reader) found.add(`${relative(SRC, file)}: ${table}`);
  };
  for (const match of text.matchAll(/\b(?:from|join)\s+([a-z_][a-z0-9_]*)\b/gi)) note(match[1]!.toLowerCase(), tables.bySqlName.get(match[1]!.toLowerCase()));
  for (const match of text.matchAll(/\b(?:from|join)\s+\$\{(\w+)\}/gi)) note(tables.byVariable.get(match[1]!)?.table, tables.byVariable.get(match[1]!)?.owner);
  for (const match of text.matchAll(/\.(?:from|innerJoin|leftJoin|rightJoin)\(\s*(\w+)/g)) note(tables.byVariable.get(match[1]!)?.table, tables.byVariable.get(match[1]!)?.owner);
  return [...found];
}

/** The read models modules publish (decision 033): views declared with pgView in their owner's schema.ts. */
function publishedViews(): Map<string, string> {
  const views = new Map<string, string>();
  for (const file of files.filter((path) => path.endsWith('/schema.ts'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/export const \w+ = pgView\(\s*'(\w+)'/g)) views.set(match[1]!, ownerOf(file));
  }
  return views;
}

describe('table ownership', () => {
  it('finds the tables every module declares', () => {
    const { bySqlName } = declaredTables();
    expect(bySqlName.get('orders')).toBe('orders');
    expect(bySqlName.get('ledger_lines')).toBe('ledger');
    expect(bySqlName.get('mail_outbox')).toBe('platform');
  });

  it('sees a write in SQL text and in drizzle alike', () => {
    const file = join(SRC, 'modules/claims/example.ts');
    const text = "await db.update(offers).set({});\nawait tx.execute(sql`update orders set x = 1`);\nawait db.insert(claims).values({});";
    expect(foreignWrites(file, text).map((write) => `${write.line}:${write.table}`)).toEqual(['2:orders', '1:offers']);
  });

  it('no module writes a table another module declares', () => {
    const tables = declaredTables();
    const writes = files.flatMap((file) => foreignWrites(file, readFileSync(file, 'utf8'), tables));
    expect(writes.map((write) => `${write.file}:${write.line} writes ${write.table} (declared by ${write.owner})`)).toEqual([]);
  });

  it('sees a read of another module\'s table, not of the read model it publishes', () => {
    const file = join(SRC, 'modules/claims/example.ts');
    const text = "sql`select g.title from game_facts g join games x on x.id = g.id`;\nawait db.select().from(sellers);\n// from users, in prose";
    expect(foreignReads(file, text).sort()).toEqual(['modules/claims/example.ts: games', 'modules/claims/example.ts: sellers']);
  });

  it('every module publishes its read models in its own schema.ts', () => {
    expect(Object.fromEntries(publishedViews())).toEqual({
      user_facts: 'users',
      untrusted_sign_ins: 'auth',
      known_addresses: 'auth',
      known_browsers: 'auth',
      game_facts: 'catalog',
      price_moves: 'catalog',
      seller_facts: 'sellers',
      sold_lines: 'orders',
      offer_stock: 'offers',
      reservation_outcomes: 'offers',
      claim_outcomes: 'claims',
      seller_postings: 'ledger',
      security_changes: 'security',
    });
  });

  it('no module reads a table another module declares: it asks the owner\'s service or reads the view the owner publishes', () => {
    const tables = declaredTables();
    const reads = files.filter((file) => !file.endsWith('/schema.ts')).flatMap((file) => foreignReads(file, readFileSync(file, 'utf8'), tables));
    expect(reads).toEqual([]);
  });
});
