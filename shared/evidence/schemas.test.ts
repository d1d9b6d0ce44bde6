import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { UploadRequest } from './schemas.js';

/** A file's name: what staff download it as. */
const named = (filename: string) => v.safeParse(UploadRequest, { filename, content_type: 'application/pdf', size: 10 }).success;

describe('a file name', () => {
  it('keeps the joiners words and emoji are spelled with (Persian, Hindi, a family emoji)', () => {
    expect(['گواهی\u200Cپزشکی.pdf', '👨\u200D👩\u200D👧.pdf', 'क्\u200Dष.pdf', 'note.pdf'].map(named)).toEqual([true, true, true, true]);
  });

  it('refuses other invisible formatting, controls, paths, quotes, and a name of nothing visible', () => {
    const refused = ['a\u200Bb.pdf', 'exe\u202Etxt.pdf', 'a\u2028b.pdf', 'a\u0000b.pdf', '../x.pdf', 'a\\b.pdf', 'a"b.pdf', '\u200D', '.\u200C.', ' '];
    expect(refused.filter(named)).toEqual([]);
  });
});
