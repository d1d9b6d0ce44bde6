import { $, el, STATUSES, when, type Ok, type Schemas, type signedInPagesKit } from './kit.js';
import { labelCells } from './console-tables.js';

/**
 * The console's audit log (its markup: console-page.ts, section #audit; role `admin`): GET
 * /api/v2/admin/audit a page at a time, newest first, with "Older" and "Newer" (the cursors of the
 * pages seen are kept, so "Newer" reads a page again as it is now).
 */
type Record = Schemas['AuditRecord'];
/** Entries a page of the log shows. */
export const AUDIT_PAGE_SIZE = 10;

const ACTIONS: { [action in Record['action']]: string } = {
  'claim.decided': 'Claim decided',
  'claim.paid': 'Payout recorded',
  'bordereau.exported': 'Bordereau export started',
  'client.created': 'Client created',
  'client.disabled': 'Client disabled',
  'staff.created': 'Staff account created',
  'terms.published': 'Terms version published',
  'remittance.recorded': 'Remittance recorded',
  'remittance.reversed': 'Remittance reversed',
  'client.suspended': 'Quotes suspended',
  'client.resumed': 'Quotes resumed',
  'evidence.opened': 'Evidence file opened',
};

/** A record's detail in words: a claim's status as the queue says it ("Documents requested", not its code). */
export const detailOf = (detail: string | null | undefined): string =>
  detail ? detail.replace(/^[A-Z][A-Za-z]+/, (word) => (Object.hasOwn(STATUSES, word) ? STATUSES[word as keyof typeof STATUSES] : word)) : '–';

export function auditLog({ announce, api, run }: ReturnType<typeof signedInPagesKit>) {
  // cursors[i]: the cursor that reads page i (page 0: none).
  let cursors: (string | null)[] = [null];
  let page = 0;
  let next: string | null = null;

  function row(record: Record): HTMLTableRowElement {
    const tr = el('tr');
    const at = el('td', when(record.at));
    at.className = 'nowrap';
    const who = el('td', record.actor.email ?? record.actor.sub);
    if (record.actor.email) who.title = record.actor.sub;
    const target = el('td', record.target.type + ' ');
    target.append(el('code', record.target.id));
    tr.append(at, who, el('td', ACTIONS[record.action] ?? record.action), target, el('td', detailOf(record.target.detail)));
    return tr;
  }
  async function read(index: number): Promise<void> {
    const query = new URLSearchParams({ limit: String(AUDIT_PAGE_SIZE) });
    const cursor = cursors[index];
    if (cursor) query.set('cursor', cursor);
    const answer = await api<Ok<'listAudit'>>('GET', '/api/v2/admin/audit?' + query.toString());
    page = index;
    next = answer.has_more ? answer.next_cursor : null;
    cursors = cursors.slice(0, index + 1);
    if (next) cursors.push(next);
    $('audit-rows').replaceChildren(...answer.data.map(row));
    labelCells($<HTMLTableElement>('audit-table'));
    $('audit-empty').hidden = answer.data.length > 0 || index > 0;
    $('audit-table').hidden = answer.data.length === 0 && index === 0;
    $<HTMLButtonElement>('audit-newer').disabled = index === 0;
    $<HTMLButtonElement>('audit-older').disabled = !next;
    const first = index * AUDIT_PAGE_SIZE + 1;
    $('audit-range').textContent = answer.data.length ? 'Entries ' + first + '–' + (first + answer.data.length - 1) + ', newest first' : '';
  }
  $('audit-older').addEventListener(
    'click',
    () =>
      void run(async () => {
        if (!next) return;
        await read(page + 1);
        if (next === null) $('audit-newer').focus(); // the button pressed is disabled now: the focus goes to its pair
        announce('Older entries: ' + ($('audit-range').textContent ?? '') + '.');
      }),
  );
  $('audit-newer').addEventListener(
    'click',
    () =>
      void run(async () => {
        await read(Math.max(0, page - 1));
        if (page === 0) $('audit-older').focus();
        announce('Newer entries: ' + ($('audit-range').textContent ?? '') + '.');
      }),
  );
  $('audit-reload').addEventListener('click', () => void run(() => read(0)));
  return { load: () => run(() => read(0)) };
}
