import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ERROR_CATALOGUE } from '#shared/platform/error-catalogue.js';
import { startedAsScript } from './started-as-script.js';

/** docs/errors.md, generated from the code's error catalogue (`npm run docs:errors`); a test keeps it current. */
export const ERRORS_DOC = fileURLToPath(new URL('../docs/errors.md', import.meta.url));

export function renderErrorsDoc(): string {
  const entries = Object.entries(ERROR_CATALOGUE) as [string, { status: number; when: string; local?: true }][];
  const row = ([code, { status, when }]: (typeof entries)[number]) => `| ${status} | \`${code}\` | ${when} |`;
  const byStatus = (a: (typeof entries)[number], b: (typeof entries)[number]) => a[1].status - b[1].status;
  return [
    '# Every error code',
    '',
    '<!-- Generated from shared/platform/error-catalogue.ts by `npm run docs:errors`: edit the catalogue, not this file. -->',
    '',
    'Every error is answered in one envelope, `{"error": {"type", "code", "message", "param"?, "request_id"}}`; `param`',
    'names the field, header or policy at fault when there is one. The `code` is stable; the message is for people.',
    '',
    '| status | `code` | when |',
    '| --- | --- | --- |',
    ...entries
      .filter(([, e]) => !e.local)
      .sort(byStatus)
      .map(row),
    '',
    'Locally only (`npm start`; deployed, API Gateway answers these itself or there is no such page):',
    '',
    '| status | `code` | when |',
    '| --- | --- | --- |',
    ...entries
      .filter(([, e]) => e.local)
      .sort(byStatus)
      .map(row),
    '',
  ].join('\n');
}

if (startedAsScript(import.meta.url)) {
  writeFileSync(ERRORS_DOC, renderErrorsDoc());
  console.log(`wrote ${ERRORS_DOC}`);
}
