import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { firstViewBudget } from './build/first-view-budget.ts';

/**
 * Vite puts the app's own script and stylesheet at the end of <head>, after the server's per-page tags
 * (`<!--page-head-->`: the page's chunks, its data, title and meta). Moving those tags after them has
 * the browser ask for the entry first: it is by far the largest file and every page waits for it.
 */
const entryBeforePageHead: Plugin = {
  name: 'entry-before-page-head',
  transformIndexHtml: {
    order: 'post',
    handler: (html) => html.replace(/\s*<!--page-head-->/, '').replace('</head>', '  <!--page-head-->\n  </head>'),
  },
};

export default defineConfig({
  plugins: [react(), entryBeforePageHead, firstViewBudget()],
  server: {
    // `npm run dev -w @keystore/web` proxies the API to a server started with `npm start`.
    proxy: { '/api': 'http://127.0.0.1:3000', '/media': 'http://127.0.0.1:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Maps are written for reading error reports, but the scripts do not point at them (the server
    // does not serve them either): the public gets the minified app, not its source.
    sourcemap: 'hidden',
    // The manifest tells the server which chunks a page needs, so it can preload them with the HTML.
    manifest: true,
    // A browser without <link rel="modulepreload"> (Safari before 17) still loads every module, only
    // without the head start; the polyfill would cost every other browser its bytes at startup.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Everything the entry imports stays in the entry chunk. Left alone, Rolldown split the modules
        // the pages share with it (React, the router) into a second file: one more request on the
        // critical path, and two gzip streams compress worse than one.
        codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] },
        // The entry lists every chunk and stylesheet a page may load by name (its preload map), so each
        // name's hash is bytes of every first view. Six characters (36 bits, within one chunk's name)
        // are as unique as eight for cache busting and keep ~90 gzip bytes off the entry (decision 027).
        chunkFileNames: 'assets/[name]-[hash:6].js',
        assetFileNames: 'assets/[name]-[hash:6][extname]',
      },
    },
  },
});
