import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The rows the catalogue index was last built from, kept in DATA_DIR with the catalogue's stamp.
 * A restart whose stamp still matches reads this file instead of the whole games table, which is
 * what lets a store with 70,000 titles answer within a few seconds of starting.
 * The first line is the stamp; each further line is one JSON batch of row tuples.
 */
export class IndexSnapshot {
  private readonly file: string;

  constructor(dataDir: string, database: string) {
    this.file = path.join(dataDir, 'cache', `catalog-index-${database}.jsonl`);
  }

  /** The saved batches when they were saved for this stamp; undefined otherwise. */
  async read(stamp: string): Promise<string[] | undefined> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch {
      return undefined;
    }
    const lines = text.split('\n');
    if (lines[0] !== stamp) return undefined;
    return lines.slice(1).filter(Boolean);
  }

  /** Saves the batches under this stamp; written aside and renamed, so a crash never leaves half a file. */
  async write(stamp: string, batches: readonly string[]): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true });
    // Each write has its own temporary file: two rebuilds in a row may save at the same time.
    const temporary = `${this.file}.${process.pid}.${randomUUID()}.tmp`;
    // JSON text holds raw newlines only as whitespace (json_agg puts some between elements).
    await writeFile(temporary, [stamp, ...batches.map((batch) => batch.replaceAll('\n', ' '))].join('\n'));
    await rename(temporary, this.file);
  }
}
