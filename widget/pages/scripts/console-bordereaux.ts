import { $, el, pause, PageError, when, type Ok, type Schemas, type signedInPagesKit } from './kit.js';
import { labelCells } from './console-tables.js';

/**
 * The console's bordereaux (its markup: console-page.ts, section #bordereaux; role `finance`): a
 * month and a kind start an export, the section reads it every second until it is done or failed,
 * then offers its link ("Get a new link" signs another). Below, the past exports (GET
 * /api/v2/admin/bordereaux, newest first, 20 at a time with "Load more"): month, kind, status, rows,
 * when and by whom started; "Get link" on a done one reads it (GET of one signs a link), "Show" on
 * another follows it.
 */
type Export = Schemas['BordereauExport'];
type Past = Schemas['BordereauExportSummary'];

export function bordereaux({ announce, api, run }: ReturnType<typeof signedInPagesKit>) {
  const READ_EVERY_MS = 1000;
  const period = $<HTMLInputElement>('period');
  const kind = $<HTMLSelectElement>('kind');
  const refreshLink = $<HTMLButtonElement>('refresh-link');
  period.value = new Date().toISOString().slice(0, 7);

  const KIND: Record<Export['kind'], string> = { premium: 'Premium', claims: 'Claims' };
  let shown: Export | null = null;
  // The past exports as listed, newest first (an export started or read here takes its place at the top, or its own).
  const listed = new Map<string, Past>();
  let cursor: string | null = null;
  const STATUS: Record<Export['status'], string> = { running: 'Running', done: 'Done', failed: 'Failed' };
  function listPast(): void {
    const rows = [...listed.values()].map((exported) => {
      const tr = el('tr');
      tr.dataset.exportId = exported.export_id;
      const name = KIND[exported.kind] + ' bordereau ' + exported.period;
      const rowCount = el('td', exported.status === 'done' ? String(exported.rows) : '–');
      rowCount.className = 'number';
      const startedCell = el('td', when(exported.created));
      const by = el('span', exported.requested_by);
      by.className = 'sub';
      startedCell.append(by);
      const action = el('td');
      const done = exported.status === 'done';
      const again = el('button', done ? 'Get link' : 'Show');
      again.type = 'button';
      again.className = 'secondary';
      again.setAttribute('aria-label', (done ? 'Get link to the ' : 'Show the ') + name.toLowerCase() + ' started ' + when(exported.created));
      again.addEventListener(
        'click',
        () =>
          void run(async () => {
            const now = await read(exported.export_id);
            show(now);
            $('result-title').focus();
            if (now.status === 'running') await follow(now);
          }),
      );
      action.append(again);
      tr.append(el('td', exported.period), el('td', KIND[exported.kind]), el('td', STATUS[exported.status]), rowCount, startedCell, action);
      return tr;
    });
    $('exports-rows').replaceChildren(...rows);
    labelCells($<HTMLTableElement>('exports-table'));
    $('exports-table').hidden = rows.length === 0;
    $('exports-count').textContent =
      rows.length === 0
        ? 'No exports yet.'
        : rows.length + (rows.length === 1 ? ' export' : ' exports') + ' shown, newest first' + (cursor ? '; more to load.' : '.');
  }
  async function loadPast(first: boolean): Promise<void> {
    const query = new URLSearchParams({ limit: '20' });
    if (!first && cursor) query.set('cursor', cursor);
    const page = await api<Ok<'listBordereauExports'>>('GET', '/api/v2/admin/bordereaux?' + query.toString());
    if (first) listed.clear();
    for (const exported of page.data) listed.set(exported.export_id, exported);
    cursor = page.next_cursor;
    $('exports-more').hidden = !page.has_more;
    listPast();
  }
  $('exports-more').addEventListener(
    'click',
    () =>
      void run(async () => {
        await loadPast(false);
        announce('More exports loaded.');
      }),
  );
  function show(exported: Export): void {
    shown = exported;
    const { url: _url, url_expires_at: _expires, ...summary } = exported;
    // Its row in the past exports follows it (drawn again only when it moved: a row keeps the focus a person put there).
    const known = listed.get(exported.export_id);
    if (known && (known.status !== summary.status || known.rows !== summary.rows)) {
      listed.set(exported.export_id, { ...known, ...summary });
      listPast();
    }
    const name = KIND[exported.kind] + ' bordereau ' + exported.period;
    $('result-title').textContent = name;
    $('result-status').textContent =
      exported.status === 'running'
        ? 'Running…'
        : exported.status === 'failed'
          ? 'Failed: ' + (exported.failure || 'the export stopped.')
          : 'Done: ' + exported.rows + (exported.rows === 1 ? ' row' : ' rows') + (exported.period_status === 'open' ? ' (the month is still open).' : '.');
    const done = exported.status === 'done' && exported.url;
    $('result-link-line').hidden = !done;
    refreshLink.hidden = !done;
    refreshLink.textContent = 'Get a new link';
    if (done) {
      const link = $<HTMLAnchorElement>('result-link');
      link.href = done;
      link.textContent = 'Download the ' + name.toLowerCase() + ' (CSV)';
      $('result-expiry').textContent = 'The link works until ' + when(exported.url_expires_at ?? '') + '.';
    }
    $('result').hidden = false;
  }
  const read = (id: string) => api<Export>('GET', '/api/v2/admin/bordereaux/' + encodeURIComponent(id));
  const following = (exported: Export) => shown !== null && shown.export_id === exported.export_id && shown.status === 'running';
  /** The export shown now: "Get a new link" is on screen only with one. */
  const current = (): Export => {
    if (!shown) throw new PageError('Start an export first.');
    return shown;
  };
  // Read every second until the export is done or failed, or another is shown; at most as long as
  // its Lambda may run (15 minutes), after which "Check again" reads it on.
  const FOLLOW_READS = (15 * 60 * 1000) / READ_EVERY_MS;
  function offerCheckAgain(): void {
    refreshLink.textContent = 'Check again';
    refreshLink.hidden = false;
  }
  async function follow(exported: Export): Promise<void> {
    for (let reads = 0; following(exported); reads++) {
      if (reads === FOLLOW_READS) {
        offerCheckAgain();
        announce('Still running after 15 minutes: check again later.');
        return;
      }
      await pause(READ_EVERY_MS);
      try {
        show(await read(exported.export_id));
      } catch (err) {
        // One failed read does not lose the export: the button reads it again (and follows it on).
        offerCheckAgain();
        throw err;
      }
    }
    if (current().status === 'done') announce($('result-status').textContent + ' The download link is ready.');
    else announce($('result-status').textContent ?? '');
  }
  $('export-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void run(
      async () => {
        const started = await api<Export>('POST', '/api/v2/admin/bordereaux', { period: period.value.trim(), kind: kind.value });
        await loadPast(true); // the new export at the top, with who started it
        show(started);
        $('result-title').focus();
        announce('Export started.');
        await follow(started);
      },
      { period: () => period, kind: () => kind },
    );
  });
  refreshLink.addEventListener(
    'click',
    () =>
      void run(async () => {
        const now = await read(current().export_id);
        show(now);
        if (now.status === 'running') await follow(now);
        else if (now.status === 'done') announce('A new link, valid 15 minutes.');
        else announce($('result-status').textContent ?? '');
      }),
  );
  return {
    /** Reads the first page of past exports (the console calls it when the section first opens). */
    load: () => run(() => loadPast(true)),
  };
}
