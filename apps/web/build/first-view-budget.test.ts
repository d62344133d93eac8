// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { firstViewFiles, gzipSize, measureFirstViews, RESPONSE_OVERHEAD_BYTES, type BuiltChunk } from './first-view-budget.ts';

const chunk = (fileName: string, options: Partial<BuiltChunk> = {}): BuiltChunk => ({
  fileName,
  code: `export const name = ${JSON.stringify(fileName)};`,
  isEntry: false,
  facadeModuleId: null,
  imports: [],
  moduleIds: [],
  ...options,
});

// A build as Vite makes it: the entry, each page's chunk (a dynamic import of the entry), shared chunks.
const build = [
  chunk('assets/index.js', { isEntry: true, facadeModuleId: '/app/apps/web/index.html', moduleIds: ['/app/apps/web/src/main.tsx'] }),
  chunk('assets/home.js', { facadeModuleId: '/app/apps/web/src/pages/home.tsx', imports: ['assets/index.js', 'assets/carousel.js'] }),
  chunk('assets/carousel.js', { imports: ['assets/index.js', 'assets/slides.js'] }),
  chunk('assets/slides.js'),
  chunk('assets/store.js', { facadeModuleId: '/app/apps/web/src/pages/store.tsx', imports: ['assets/index.js', 'assets/charts.js'] }),
  chunk('assets/charts.js', { moduleIds: ['/app/apps/web/src/features/admin/dashboard-charts.tsx', '/app/node_modules/recharts/es6/index.js'] }),
  chunk('assets/admin.js', { facadeModuleId: '/app/apps/web/src/pages/admin.tsx', imports: ['assets/index.js', 'assets/charts.js'] }),
];

describe("a first view's JavaScript", () => {
  it('is the entry and the page chunk, with every chunk they import and nothing another page loads', () => {
    expect(firstViewFiles(build, 'home').sort()).toEqual(['assets/carousel.js', 'assets/home.js', 'assets/index.js', 'assets/slides.js']);
  });

  it('counts each file gzip’d, with what its answer adds, and names the modules a first view must not load', async () => {
    const [home, store] = await measureFirstViews(build, ['home', 'store']);
    const sizes = await Promise.all(home!.files.map((file) => gzipSize(build.find((each) => each.fileName === file)!.code)));
    expect(home!.bytes).toBe(sizes.reduce((sum, size) => sum + size, 0) + 4 * RESPONSE_OVERHEAD_BYTES);
    expect(home!.keptOut).toEqual([]);
    expect(store!.keptOut).toEqual(['/app/apps/web/src/features/admin/dashboard-charts.tsx', '/app/node_modules/recharts/es6/index.js']);
  });

  it('fails for a page without a chunk of its own, which the server could not preload', () => {
    expect(() => firstViewFiles(build, 'game')).toThrow('The page "game" has no chunk of its own (src/pages/game.tsx)');
  });
});
