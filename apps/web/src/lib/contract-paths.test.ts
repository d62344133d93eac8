import { describe, expect, it } from 'vitest';
import contract from '../../../../packages/contract/package.json';

// The sources of the contract, by file name.
const sources = Object.fromEntries(
  Object.entries(import.meta.glob<string>('../../../../packages/contract/src/*.ts', { query: '?raw', import: 'default', eager: true })).map(([file, text]) => [
    file.split('/').pop()!,
    text,
  ]),
);

/** Every module a contract file imports, followed through its relative imports (type-only imports load no code). */
function codeImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, specifier] of sources[file]!.matchAll(/^import (?!type )[^;]*?from '([^']+)';/gms)) {
    if (specifier!.startsWith('./')) codeImports(specifier!.slice(2), seen);
    else seen.add(specifier!);
  }
  return seen;
}

describe("the contract's paths the web app imports", () => {
  // Every path but the index may sit in the first chunk: zod there would add ~15 KB gzip.
  const zodFree = Object.entries(contract.exports).filter(([path]) => path !== '.');

  it.each(zodFree)('keep zod out of %s', (_path, file) => {
    expect([...codeImports(file.replace('./src/', ''))]).not.toContain('zod');
  });
});
