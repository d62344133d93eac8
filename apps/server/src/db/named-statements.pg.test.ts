import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NamingClient } from './named-statements.ts';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

// What PostgreSQL itself holds: the session's prepared statements (pg_prepared_statements).
describe('named statements on PostgreSQL', () => {
  let client: pg.Client;
  const prepared = async () =>
    (await client.query<{ statement: string }>({ text: 'select statement from pg_prepared_statements order by prepare_time' })).rows.map((row) => row.statement);

  beforeAll(async () => {
    client = new NamingClient({ connectionString: url });
    await client.connect();
    await client.query('create temp table named_probe (id int primary key, label text)');
    await client.query(`insert into named_probe values (1, 'one'), (2, 'two')`);
  });
  afterAll(() => client?.end());

  it('prepares a query with parameters once per connection, and runs it again by name', async () => {
    const text = 'select label from named_probe where id = $1';
    expect((await client.query(text, [1])).rows).toEqual([{ label: 'one' }]);
    expect((await client.query({ text, values: [2] })).rows).toEqual([{ label: 'two' }]);
    await new Promise<void>((resolve, reject) =>
      client.query(text, [1], (error, result) => (error ? reject(error) : (expect(result.rows).toEqual([{ label: 'one' }]), resolve()))),
    );
    expect((await prepared()).filter((statement) => statement === text)).toHaveLength(1);
  });

  it('leaves queries without parameters, and queries named by their caller, as they are', async () => {
    await client.query('select count(*) from named_probe');
    await client.query({ name: 'callers_own', text: 'select label from named_probe where id = $1', values: [2] });
    const statements = await prepared();
    expect(statements).not.toContain('select count(*) from named_probe');
    expect(statements.filter((statement) => statement === 'select label from named_probe where id = $1')).toHaveLength(2);
  });

  it('prepares a statement afresh after its columns changed under it, failing once at most', async () => {
    const text = 'select * from named_probe where id = $1';
    expect((await client.query(text, [1])).rows).toEqual([{ id: 1, label: 'one' }]);
    await client.query('alter table named_probe add column note text');
    const again = await client.query(text, [1]).catch((error: Error) => error);
    if (again instanceof Error) expect(again.message).toMatch(/cached plan must not change result type/);
    expect((await client.query(text, [1])).rows).toEqual([{ id: 1, label: 'one', note: null }]);
  });
});
