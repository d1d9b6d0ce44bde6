import { describe, expect, it } from 'vitest';
import { claimLink } from './claim-link.js';

describe('claimLink', () => {
  it('names the shop by its client id in the query, under the site, and the order number and e-mail (encoded) in the fragment, only when given', () => {
    expect(claimLink('https://d1.cloudfront.net', 'cl_abc')).toBe('https://d1.cloudfront.net/claim?shop=cl_abc');
    expect(claimLink('http://localhost:3000/', 'cl_abc', { orderNumber: 'A&B #7', email: 'c+d@example.org' })).toBe(
      'http://localhost:3000/claim?shop=cl_abc#order=A%26B+%237&email=c%2Bd%40example.org',
    );
    expect(claimLink('http://localhost:3000/portal/', 'cl_abc', { orderNumber: '' })).toBe('http://localhost:3000/claim?shop=cl_abc');
  });

  it('keeps the order number and e-mail out of everything a request carries (path and query)', () => {
    const url = new URL(claimLink('https://shop.example', 'cl_abc', { orderNumber: 'A-1001', email: 'claire@example.org' }));
    expect(url.pathname + url.search).toBe('/claim?shop=cl_abc');
    expect(new URLSearchParams(url.hash.slice(1)).get('email')).toBe('claire@example.org');
  });
});
