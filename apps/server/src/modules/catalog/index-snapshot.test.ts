import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameListAnswer } from '@keystore/contract';
import { queryRows, type Database } from '../../db/client.ts';
import { buildTestApp, freshDatabase } from '../../test/helper.ts';

// A restart reads the saved index when the catalogue has not changed, and the database when it has.
describe('saved catalogue index', () => {
  let database: Database;
  let dataDir: string;
  let file: string;

  beforeAll(async () => {
    database = await freshDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'keystore-snapshot-'));
    file = path.join(dataDir, 'cache', `catalog-index-${database.kind}.jsonl`);
    const first = await buildTestApp({ database, env: { DATA_DIR: dataDir } });
    await first.app.catalog.syncNow();
    for (let tries = 0; !(existsSync(file) && readFileSync(file, 'utf8').includes('The Witcher')); tries += 1) {
      if (tries > 100) throw new Error('the index was not saved');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await first.close();
  });
  afterAll(async () => {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const titles = async (env: Record<string, string>) => {
    const t = await buildTestApp({ database, env });
    const answer = (await t.app.inject({ url: '/api/games?search=witcher&pageSize=100' })).json<GameListAnswer>();
    await t.close();
    return answer.items.map((item) => item.title);
  };

  it('is read on restart while the catalogue is unchanged', async () => {
    // Mark the saved copy: if the restart shows the mark, it read the file and not the table.
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('The Witcher 3: Wild Hunt"', 'The Witcher 3: Wild Hunt (saved)"'));
    expect(await titles({ DATA_DIR: dataDir })).toContain('The Witcher 3: Wild Hunt (saved)');
  });

  it('is ignored once any game has changed', async () => {
    await queryRows(database.db, sql`update games set supplier_stock = supplier_stock + 1 where title = 'The Witcher 3: Wild Hunt'`);
    const after = await titles({ DATA_DIR: dataDir });
    expect(after).toContain('The Witcher 3: Wild Hunt');
    expect(after).not.toContain('The Witcher 3: Wild Hunt (saved)');
  });
});
