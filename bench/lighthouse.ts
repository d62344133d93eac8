// Lighthouse in mobile mode (its default) on the home page, the store and a game page, served by the
// production server with the built web app. Prints the four category scores, LCP, TBT, CLS and the
// gzip size of the JavaScript loaded on first view, against the storefront's targets.
//   npm run bench:lighthouse
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { serverNodeFlags } from '../scripts/server-process.ts';

const root = path.join(import.meta.dirname, '..');
const PORT = 3910;
const base = `http://127.0.0.1:${PORT}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'keystore-lighthouse-'));
const env = { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', NODE_ENV: 'production' };
const server = spawn(process.execPath, [...serverNodeFlags(env), path.join(root, 'apps/server/src/main.ts')], { env, stdio: 'inherit' });

try {
  let gameId: string | undefined;
  for (let tries = 0; !gameId; tries += 1) {
    if (tries > 300) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
    try {
      const answer = (await (await fetch(`${base}/api/games?pageSize=1`)).json()) as { items: Array<{ _id: string }> };
      gameId = answer.items[0]?._id;
    } catch {
      // not listening yet
    }
  }
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  try {
    const rows: string[][] = [];
    const misses: string[] = [];
    for (const page of ['/', '/store', `/game/${gameId}`]) {
      const result = await lighthouse(`${base}${page}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      });
      const lhr = result!.lhr;
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const metric = (id: string) => lhr.audits[id]?.numericValue ?? 0;
      const requests = (lhr.audits['network-requests']?.details as { items?: Array<{ url: string; resourceType: string }> } | undefined)?.items ?? [];
      let jsGzip = 0;
      for (const request of requests.filter((item) => item.resourceType === 'Script' && item.url.startsWith(base))) {
        jsGzip += gzipSync(Buffer.from(await (await fetch(request.url)).arrayBuffer()), { level: 9 }).length;
      }
      const figures = {
        performance: score('performance'),
        accessibility: score('accessibility'),
        bestPractices: score('best-practices'),
        seo: score('seo'),
        lcp: metric('largest-contentful-paint'),
        tbt: metric('total-blocking-time'),
        cls: metric('cumulative-layout-shift'),
        jsKb: jsGzip / 1024,
      };
      rows.push([
        page.startsWith('/game/') ? '/game/{id}' : page,
        String(figures.performance),
        String(figures.accessibility),
        String(figures.bestPractices),
        String(figures.seo),
        `${(figures.lcp / 1000).toFixed(2)} s`,
        `${figures.tbt.toFixed(0)} ms`,
        figures.cls.toFixed(3),
        `${figures.jsKb.toFixed(1)} KB`,
      ]);
      const checks: Array<[string, boolean]> = [
        ['performance ≥ 95', figures.performance >= 95],
        ['accessibility 100', figures.accessibility === 100],
        ['best practices ≥ 95', figures.bestPractices >= 95],
        ['SEO 100', figures.seo === 100],
        ['initial JavaScript ≤ 120 KB gzip', figures.jsKb <= 120],
        ['CLS ≤ 0.02', figures.cls <= 0.02],
      ];
      for (const [target, ok] of checks) if (!ok) misses.push(`${page}: ${target}`);
      for (const audit of Object.values(lhr.audits)) {
        if (audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary') console.log(`  ${page}: ${audit.id}: ${audit.title}`);
      }
    }
    const header = ['page', 'perf', 'a11y', 'best', 'seo', 'LCP', 'TBT', 'CLS', 'JS gzip'];
    console.log(`\nLighthouse ${'(mobile)'}\n${header.map((cell) => cell.padEnd(12)).join('')}`);
    for (const row of rows) console.log(row.map((cell) => cell.padEnd(12)).join(''));
    console.log(misses.length ? `\nMISS  ${misses.join('\nMISS  ')}` : '\nPASS  every target');
  } finally {
    await chrome.kill();
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
