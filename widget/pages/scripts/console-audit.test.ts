import { describe, expect, it } from 'vitest';
import { detailOf } from './console-audit.js';

describe('the audit log’s detail', () => {
  it('says a claim’s status in words, as the queue does, and leaves other details as they are', () => {
    expect(detailOf('DocumentsRequested')).toBe('Documents requested');
    expect(detailOf('Approved 120.00 USD')).toBe('Approved 120.00 USD');
    expect(detailOf('finance, admin')).toBe('finance, admin');
    expect(detailOf('Statement 2026-11')).toBe('Statement 2026-11');
    expect(detailOf(null)).toBe('–');
  });
});
