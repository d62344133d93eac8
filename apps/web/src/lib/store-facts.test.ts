import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SUPPORT_EMAIL } from '@keystore/contract/constants';
import { supportEmail } from './store-facts.ts';

describe('the shop’s configured facts', () => {
  afterEach(() => document.head.querySelectorAll('meta').forEach((tag) => tag.remove()));

  it('reads the support address the server put in the page, else the default', () => {
    expect(supportEmail()).toBe(DEFAULT_SUPPORT_EMAIL);
    const tag = document.createElement('meta');
    tag.name = 'keystore:support-email';
    tag.content = 'help@shop.example';
    document.head.append(tag);
    expect(supportEmail()).toBe('help@shop.example');
  });
});
