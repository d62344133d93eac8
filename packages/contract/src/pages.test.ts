import { describe, expect, it } from 'vitest';
import { matchPage } from './pages.ts';

describe('the page table', () => {
  it('finds the page of a path, with its parameters', () => {
    expect(matchPage('/')).toEqual({ key: 'home', params: {} });
    expect(matchPage('/store')).toEqual({ key: 'store', params: {} });
    expect(matchPage('/game/abc123')).toEqual({ key: 'game', params: { id: 'abc123' } });
    expect(matchPage('/pay/o1')).toEqual({ key: 'pay', params: { orderId: 'o1' } });
    expect(matchPage('/news/n1')).toEqual({ key: 'news-item', params: { id: 'n1' } });
    expect(matchPage('/orders/o1')).toEqual({ key: 'order', params: { id: 'o1' } });
    expect(matchPage('/gifts/g1')).toEqual({ key: 'gift', params: { id: 'g1' } });
    // The back office is one page at every /admin address; it routes its sections itself.
    for (const path of ['/admin', '/admin/news', '/admin/orders/o1', '/admin/nowhere']) expect(matchPage(path), path).toEqual({ key: 'admin', params: {} });
  });

  it('knows no other path', () => {
    for (const path of ['/nowhere', '/game', '/game/a/b', '/administrator', '/store/x', '/game/a.b', `/pay/${'x'.repeat(65)}`]) expect(matchPage(path), path).toBeUndefined();
  });
});
