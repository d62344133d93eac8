// Lint rules, including the import boundaries of STYLE.md written as rules, not hopes:
// the web app never imports the server, the contract imports neither app, and no web feature
// imports another feature (shared code moves down to ui/ or lib/).
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const features = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

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
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/web/src/**', '@keystore/web'], message: 'The server never imports the web app.' }] }],
    },
  },
);
