// What every benchmark shares: a figure with its goal and verdict, the one table they are printed in,
// load runs through autocannon, and what a server process costs (CPU, memory) read from /proc.
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';

/** One measured figure: what it is, the goal, the value as printed, and whether it meets the goal (undefined: reported only). */
export interface Figure {
  figure: string;
  goal: string;
  value: string;
  pass: boolean | undefined;
  /** Which column of the table it goes in (the catalogue's: embedded database, PostgreSQL); none: the one value column. */
  column?: string;
}

export const figure = (name: string, goal: string, value: string, pass?: boolean): Figure => ({ figure: name, goal, value, pass });

const verdictOf = (row: Figure | undefined) => (row === undefined ? '' : row.pass === undefined ? '—' : row.pass ? 'PASS' : 'FAIL');

/**
 * Prints figures as one table: figure, goal, then value and PASS/FAIL (or "—" for a figure reported
 * only) in each column the figures name (one value column when they name none): a figure measured in
 * several columns is one row.
 */
export function printFigures(title: string, figures: readonly Figure[]): void {
  const columns = [...new Set(figures.map((row) => row.column ?? 'value'))];
  const rows = new Map<string, { name: string; goal: string; cells: Map<string, Figure> }>();
  for (const row of figures) {
    const key = `${row.figure}\u0000${row.goal}`;
    if (!rows.has(key)) rows.set(key, { name: row.figure, goal: row.goal, cells: new Map() });
    rows.get(key)!.cells.set(row.column ?? 'value', row);
  }
  const width = Math.max(...figures.map((row) => row.figure.length), 6) + 2;
  const goalWidth = Math.max(...figures.map((row) => row.goal.length), 4) + 2;
  const widths = columns.map((column) => Math.max(column.length, ...figures.filter((row) => (row.column ?? 'value') === column).map((row) => row.value.length + 6)) + 2);
  console.log(`\n${title}`);
  console.log(`${'figure'.padEnd(width)}${'goal'.padEnd(goalWidth)}${columns.map((column, n) => column.padEnd(widths[n]!)).join('')}`);
  for (const row of rows.values()) {
    const cells = columns.map((column, n) => {
      const cell = row.cells.get(column);
      return (cell ? `${cell.value} ${verdictOf(cell)}` : 'n/a').padEnd(widths[n]!);
    });
    console.log(`${row.name.padEnd(width)}${row.goal.padEnd(goalWidth)}${cells.join('')}`.trimEnd());
  }
  const failed = figures.filter((row) => row.pass === false).length;
  console.log(failed ? `\n${failed} of ${figures.filter((row) => row.pass !== undefined).length} goals missed` : '\nevery goal met');
}

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /** Bytes on the wire per answer, headers included. */
  bytes: number;
}

export interface LoadOptions {
  /** One path, or several taken in turn (a mix). */
  paths: readonly string[];
  seconds: number;
  connections?: number;
  headers?: Record<string, string>;
  /** Requests per second over all connections (a steady rate), instead of as many as the server takes. */
  rate?: number;
}

/** Runs autocannon against a server; every answer must be a 2xx. */
export async function load(base: string, options: LoadOptions): Promise<Load> {
  const result = await autocannon({
    url: base,
    connections: options.connections ?? 10,
    duration: options.seconds,
    headers: options.headers ?? {},
    requests: options.paths.map((path) => ({ method: 'GET', path })),
    ...(options.rate ? { overallRate: options.rate } : {}),
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${options.paths.join(', ')}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    bytes: result.throughput.total / Math.max(1, result.requests.total),
  };
}

/**
 * A steady rate, as a busy store sees it: request n is sent at n / rate seconds on a kept-alive
 * connection, whatever the answers before it (an open loop: a stall delays every request sent
 * during it; autocannon's rate sends each second's requests in one burst). Timed from the send.
 */
export async function steady(base: string, options: { paths: readonly string[]; seconds: number; rate: number; headers?: Record<string, string> }): Promise<Load> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const url = new URL(base);
  const total = Math.round(options.rate * options.seconds);
  const latencies: number[] = [];
  let bytes = 0;
  let failures = 0;
  const started = performance.now();
  const one = (n: number) =>
    new Promise<void>((resolve) => {
      const due = performance.now();
      const sent = request(
        { agent, host: url.hostname, port: url.port, path: options.paths[n % options.paths.length], headers: options.headers },
        (response) => {
          response.on('data', (chunk: Buffer) => (bytes += chunk.length));
          response.on('end', () => {
            if (response.statusCode !== 200) failures += 1;
            latencies.push(performance.now() - due);
            resolve();
          });
        },
      );
      sent.on('error', () => {
        failures += 1;
        resolve();
      });
      sent.end();
    });
  const inFlight: Array<Promise<void>> = [];
  for (let n = 0; n < total; n += 1) {
    const wait = started + (n * 1000) / options.rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(one(n));
  }
  await Promise.all(inFlight);
  agent.destroy();
  if (failures > 0) throw new Error(`${options.paths.join(', ')}: ${failures} failed answers at a steady ${options.rate}/s`);
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)]!;
  return { rps: total / ((performance.now() - started) / 1000), p50: at(0.5), p99: at(0.99), max: latencies[latencies.length - 1]!, bytes: bytes / total };
}

/** Memory of a process: resident now and at its peak, in MB. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

/** CPU seconds a process (all its threads) has used so far. */
export function cpuSecondsOf(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** /proc/PID/stat's fields from the state on (the command before it may hold spaces): utime, stime, cutime, cstime are 11–14. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * CPU seconds every PostgreSQL process on this machine has used so far (its backends, writers and
 * checkpointer, and the backends that have ended): 0 when the database runs elsewhere.
 */
export function postgresCpuSeconds(): number {
  let seconds = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      // Its own time, and that of the children it has reaped (the postmaster's: backends that ended).
      const fields = statFields(Number(entry));
      seconds += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
    } catch {
      // Gone between the listing and the read.
    }
  }
  return seconds;
}

/** Share of one core a process used over `seconds` of wall time, in percent. */
export async function cpuPercentOver(pid: number, seconds: number): Promise<number> {
  const before = cpuSecondsOf(pid);
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return ((cpuSecondsOf(pid) - before) / ((performance.now() - started) / 1000)) * 100;
}

/** The p-th percentile of ascending values (nearest rank), NaN for none. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const percent = (value: number) => `${(value * 100).toFixed(0)} %`;
export const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Whether this module is the script node was started with (a benchmark run alone). */
export const isMain = (meta: ImportMeta) => process.argv[1] === meta.filename;
