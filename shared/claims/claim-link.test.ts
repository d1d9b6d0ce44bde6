import { describe, expect, it } from 'vitest';
import { claimLink } from './claim-link.js';

describe('claimLink', () => {
  it('names the shop by its client id, under the site, with the order number and e-mail only when given (encoded)', () => {
    expect(claimLink('https://d1.cloudfront.net', 'cl_abc')).toBe('https://d1.cloudfront.net/claim?shop=cl_abc');
    expect(claimLink('http://localhost:3000/', 'cl_abc', { orderNumber: 'A&B #7', email: 'c+d@example.org' })).toBe(
      'http://localhost:3000/claim?shop=cl_abc&order=A%26B+%237&email=c%2Bd%40example.org',
    );
    expect(claimLink('http://localhost:3000/portal/', 'cl_abc', { orderNumber: '' })).toBe('http://localhost:3000/claim?shop=cl_abc');
  });
});
