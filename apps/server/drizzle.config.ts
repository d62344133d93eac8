import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Each table lives with the module that owns it.
  schema: ['./src/modules/*/schema.ts', './src/platform/schema.ts'],
  out: './drizzle',
});
