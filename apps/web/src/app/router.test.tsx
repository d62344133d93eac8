import { describe, expect, it } from 'vitest';
import { PAGE_KEYS, pageModule } from '@keystore/contract/pages';
import { pageComponent } from './router.tsx';

describe('the router', () => {
  it('has a module for every page of the contract, which the server preloads by its key', () => {
    for (const key of PAGE_KEYS) expect(() => pageComponent(key), key).not.toThrow();
  });

  it('has no page module the contract does not list', () => {
    const modules = Object.keys(import.meta.glob('../pages/*.tsx')).map((file) => file.replace('../', 'src/'));
    expect(modules.sort()).toEqual(PAGE_KEYS.map(pageModule).sort());
  });
});
