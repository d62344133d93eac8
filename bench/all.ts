// Every benchmark in one run, printed as one table: figure, goal, value, PASS/FAIL.
//   npm run bench:all                   (builds the web app first; PostgreSQL at BENCH_DATABASE_URL or 127.0.0.1:5432)
// Each part runs alone too: npm run bench (catalogue), bench:orders (purchases), bench:lighthouse.
import { cpus, totalmem } from 'node:os';
import { catalogFigures } from './catalog.ts';
import { printFigures, type Figure } from './figures.ts';
import { lighthouseFigures } from './lighthouse.ts';
import { purchaseFigures } from './orders.ts';

const started = performance.now();
// Each part's figures go in the column of the database its servers ran on (the catalogue measures both).
const parts: Array<[string, () => Promise<Figure[]>, string | undefined]> = [
  ['catalogue', catalogFigures, undefined],
  ['purchases', purchaseFigures, 'PostgreSQL'],
  ['web', lighthouseFigures, 'embedded'],
];
const figures: Figure[] = [];
for (const [name, run, column] of parts) {
  console.log(`\n== ${name} ==`);
  figures.push(...(await run()).map((row) => ({ ...row, column: row.column ?? column })));
}
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.versions.node}`;
printFigures(`Keystore benchmarks (${machine}; ${((performance.now() - started) / 60_000).toFixed(1)} min)`, figures);
if (figures.some((row) => row.pass === false)) process.exitCode = 1;
