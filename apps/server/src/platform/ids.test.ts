import { describe, expect, it } from 'vitest';
import { ID_PATTERN } from '@keystore/contract';
import { newId } from './ids.ts';

describe('newId', () => {
  it('gives ids of the shape the contract takes in paths, at every length the store uses', () => {
    for (const length of [16, 20, 24]) {
      for (let i = 0; i < 200; i += 1) expect(newId(length)).toMatch(ID_PATTERN);
    }
    expect(newId()).toHaveLength(16);
  });
});
