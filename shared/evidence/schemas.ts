import * as v from 'valibot';
import { NotFoundError } from '../platform/errors.js';
import { prefixedIdPattern } from '../platform/ids.js';
import { maxCharacters } from '../platform/http/schemas.js';
import { ACCEPTED_TYPES, MAX_FILE_BYTES, MAX_FILENAME_LENGTH } from './evidence.js';

/** What a file name holds: no slash, backslash or quote, and nothing invisible but the joiners (below). */
const FILE_NAME = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}/\\"]*$/u;
/** The zero-width non-joiner and joiner: invisible, but Persian and Hindi words and emoji (👨‍👩‍👧) are spelled with them. */
const JOINERS = /[\u200C\u200D]/gu;

/**
 * POST /api/v2/claims/{id}/files: the file the customer is about to upload. Its name is what staff
 * download it as: printable, no path, no quotes, no invisible formatting but the joiners; its type one of ACCEPTED_TYPES; its size in bytes,
 * exactly (the POST's policy pins it).
 */
export const UploadRequest = v.strictObject({
  filename: v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    maxCharacters(MAX_FILENAME_LENGTH),
    v.check(
      (name) => FILE_NAME.test(name.replace(JOINERS, '')),
      'must be a file name: no slashes, quotes, control or invisible formatting characters (but the joiners words and emoji need)',
    ),
    v.check((name) => /[^.\s]/u.test(name.replace(JOINERS, '')), 'must be a file name, not only dots and spaces'),
  ),
  content_type: v.picklist(ACCEPTED_TYPES, `must be one of ${ACCEPTED_TYPES.join(', ')}`),
  size: v.pipe(
    v.number('must be the number of bytes'),
    v.integer('must be a whole number of bytes'),
    v.minValue(1, 'must be at least 1 byte'),
    v.maxValue(MAX_FILE_BYTES, `must be at most ${MAX_FILE_BYTES} bytes (10 MiB)`),
  ),
});
export type UploadRequest = v.InferOutput<typeof UploadRequest>;

const FILE_ID = prefixedIdPattern('fi');

/** The path's file id: one that cannot be a file's is the same 404 as an unknown one. */
export function fileIdOf(pathParameters: Record<string, string | undefined> | undefined): string {
  const id = pathParameters?.file_id;
  if (id === undefined || !FILE_ID.test(id)) throw new NotFoundError('file_not_found', 'This claim has no file with this id.', 'file_id');
  return id;
}
