// Lint rules, including the import boundaries of STYLE.md written as rules, not hopes:
// the web app never imports the server, the contract imports neither app, no web feature
// imports another feature (shared code moves down to ui/ or lib/), and a server module reaches
// another only through that module's ports.ts (its tests and test kits excepted; a module's tables,
// schema.ts, may name another's in a foreign key). A module's read models (views, decision 033) are
// exported by its ports.ts like its service.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const features = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const serverNeverImportsWeb = { group: ['**/web/src/**', '@keystore/web'], message: 'The server never imports the web app.' };

/**
 * Another server module's file other than its ports.ts (or, where `allowed` says so, its schema.ts), from a
 * module's folder (depth 0) or a folder inside it (depth 1).
 */
const otherModulesInternals = (depth, allowed = 'ports') => ({
  regex: `^${'\\.\\./'.repeat(depth + 1)}(?!\\.\\./)[^/]+/(?!(?:${allowed})\\.ts$).+`,
  message: "A server module uses another only through that module's ports.ts (app.ts, the composition root, may use any).",
});

/** Files of a module that may import another module's schema.ts: its tables (foreign keys). */
const usesOtherModulesTables = ['apps/server/src/modules/*/schema.ts'];

const webNeverImportsServer = { group: ['**/server/**', '@keystore/server', 'node:*'], message: 'The web app never imports the server.' };

/** The import patterns that reach a feature other than `feature` (none while it is the only one). */
function otherFeatures(feature) {
  const group = features.filter((other) => other !== feature).flatMap((other) => [`../${other}/**`, `**/features/${other}/**`]);
  return group.length ? [{ group, message: 'A feature never imports another feature: move shared code to ui/ or lib/.' }] : [];
}

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/drizzle/meta/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-duplicate-imports': 'error',
    },
  },
  {
    files: ['apps/web/public/sw.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ['packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/apps/**', '@keystore/server', '@keystore/web'], message: 'The contract imports neither app.' }] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [webNeverImportsServer] }],
    },
  },
  {
    // The contract's index carries zod: the web app takes values from its zod-free paths, and types from anywhere.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/**/*.test.{ts,tsx}', 'apps/web/src/test/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@keystore/contract',
              allowTypeImports: true,
              message: 'Import values from a zod-free path (@keystore/contract/constants, /rules, /news-rules …); the index would bring zod into the bundle.',
            },
          ],
        },
      ],
    },
  },
  ...features.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [webNeverImportsServer, ...otherFeatures(feature)],
        },
      ],
    },
  })),
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [serverNeverImportsWeb] }],
    },
  },
  ...[0, 1].map((depth) => ({
    files: [`apps/server/src/modules/*/${'*/'.repeat(depth)}*.ts`],
    ignores: ['**/*.test.ts', '**/test-kit.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [serverNeverImportsWeb, otherModulesInternals(depth)] }],
    },
  })),
  {
    files: usesOtherModulesTables,
    rules: {
      'no-restricted-imports': ['error', { patterns: [serverNeverImportsWeb, otherModulesInternals(0, 'ports|schema')] }],
    },
  },
);
