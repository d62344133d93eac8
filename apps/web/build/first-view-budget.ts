// The first view's JavaScript budget (issue 22, docs/decisions/027), checked by every build. A visitor
// lands on the home page, the store or a game page; the scripts such a first view loads are the entry
// and the page's chunk, with every chunk they import. Their gzip sizes, plus what each response adds,
// must stay within the budget, and none of them may carry the back office or the dialogs' libraries.
// `npm run bench:lighthouse` measures the same figure as Lighthouse counts it and stays the reference;
// this check keeps a build from passing the budget unseen.
import type { Plugin, ResolvedConfig } from 'vite';
import { pageModule, type PageKey } from '@keystore/contract/page-paths';

/** The pages visitors land on: their first views have the budget. */
export const FIRST_VIEW_PAGES = ['home', 'store', 'game'] as const satisfies readonly PageKey[];

/** KB (1024 bytes) of JavaScript a first view may transfer, as Lighthouse counts it. */
export const FIRST_VIEW_BUDGET_KB = 110;

/**
 * What Lighthouse counts of a script beyond its gzip'd body: the answer's headers and its chunked
 * framing. A hashed script is sent without a document's headers (platform/web-app.ts): 382 bytes of
 * headers and some 60 of framing, where helmet's full set made it 990–1050 bytes (decision 027).
 */
export const RESPONSE_OVERHEAD_BYTES = 450;

/** Modules no first view may load: the back office and its charts, the auth dialogs' libraries, zod. */
const KEPT_OUT = [/\/src\/features\/admin\//, /\/node_modules\/(recharts|react-hook-form|obscenity|zod)\//];

/** What the check needs of a built chunk (Rollup's OutputChunk has it). */
export interface BuiltChunk {
  fileName: string;
  code: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  /** The chunks it imports statically: they load with it. */
  imports: readonly string[];
  moduleIds: readonly string[];
}

export interface FirstView {
  page: PageKey;
  files: string[];
  /** Gzip'd bytes of the files plus RESPONSE_OVERHEAD_BYTES each. */
  bytes: number;
  /** Modules of the files that KEPT_OUT forbids. */
  keptOut: string[];
}

/** The files a page's first view loads: the entry and the page's chunk, with every chunk they import. */
export function firstViewFiles(chunks: readonly BuiltChunk[], page: PageKey): string[] {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entry = chunks.find((chunk) => chunk.isEntry);
  // A page's module may end up inside a chunk shared with other pages, without a chunk (and a
  // manifest entry) of its own: then the server cannot preload it with the HTML.
  const pageChunk = chunks.find((chunk) => !chunk.isEntry && chunk.facadeModuleId?.endsWith(`/${pageModule(page)}`));
  if (!entry) throw new Error('The build has no entry chunk');
  if (!pageChunk) throw new Error(`The page "${page}" has no chunk of its own (${pageModule(page)})`);
  const files = new Set<string>();
  const visit = (chunk: BuiltChunk | undefined) => {
    if (!chunk || files.has(chunk.fileName)) return;
    files.add(chunk.fileName);
    for (const imported of chunk.imports) visit(byName.get(imported));
  };
  visit(entry);
  visit(pageChunk);
  return [...files];
}

/** The first view of each page, measured. */
export async function measureFirstViews(chunks: readonly BuiltChunk[], pages: readonly PageKey[]): Promise<FirstView[]> {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const sizes = new Map<string, number>();
  const views: FirstView[] = [];
  for (const page of pages) {
    const files = firstViewFiles(chunks, page);
    let bytes = 0;
    const keptOut: string[] = [];
    for (const file of files) {
      const chunk = byName.get(file)!;
      if (!sizes.has(file)) sizes.set(file, await gzipSize(chunk.code));
      bytes += sizes.get(file)! + RESPONSE_OVERHEAD_BYTES;
      keptOut.push(...chunk.moduleIds.filter((id) => KEPT_OUT.some((pattern) => pattern.test(id))));
    }
    views.push({ page, files, bytes, keptOut });
  }
  return views;
}

/** Bytes of a text gzip'd at zlib's default level, as the server's compression sends a script. */
export async function gzipSize(text: string): Promise<number> {
  const compressed = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return (await new Response(compressed).arrayBuffer()).byteLength;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Fails the build when a first view passes FIRST_VIEW_BUDGET_KB or loads a module KEPT_OUT forbids. */
export function firstViewBudget(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'first-view-budget',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    // Once the files are written: by then the code is what the server sends.
    async writeBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
      const views = await measureFirstViews(chunks, FIRST_VIEW_PAGES);
      const problems: string[] = [];
      for (const view of views) {
        config.logger.info(`first view of ${view.page}: ${kb(view.bytes)} of JavaScript in ${view.files.length} files (budget ${FIRST_VIEW_BUDGET_KB} KB)`);
        if (view.bytes > FIRST_VIEW_BUDGET_KB * 1024) problems.push(`${view.page}: ${kb(view.bytes)} (${view.files.join(', ')}) is over the budget of ${FIRST_VIEW_BUDGET_KB} KB`);
        if (view.keptOut.length > 0) problems.push(`${view.page} loads ${view.keptOut.join(', ')}`);
      }
      if (problems.length > 0) this.error(`The first view's JavaScript (docs/decisions/027):\n${problems.join('\n')}`);
    },
  };
}
