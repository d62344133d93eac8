// Entry point: `node src/main.ts`. Module hooks first, then the server (a dynamic import, so the
// hooks apply to everything it loads).
import './platform/drizzle-as-commonjs.ts';

await import('./server.ts');
