// Loads drizzle-orm through its CommonJS build. Node 24's ES module loader re-reads drizzle-orm's
// 180 KB package.json for each of the ~500 files it imports, which leaves about 160 MB of resident
// memory behind at start; its CommonJS files (.cjs) need no such look-up. Same code, same API.
// See docs/decisions/003-drizzle-commonjs-build.md.
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/')) {
      return nextResolve(specifier, { ...context, conditions: ['require', 'node', 'default'] });
    }
    return nextResolve(specifier, context);
  },
});
