import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  server: {
    // `npm run dev -w @keystore/web` proxies the API to a server started with `npm start`.
    proxy: { '/api': 'http://127.0.0.1:3000', '/media': 'http://127.0.0.1:3000' },
  },
  // The manifest tells the server which chunks a page needs, so it can preload them with the HTML.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, manifest: true },
});
