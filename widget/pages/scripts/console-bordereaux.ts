import { $, el, pause, PageError, when, type Schemas, type signedInPagesKit } from './kit.js';

/**
 * The console's bordereaux (its markup: console-page.ts, section #bordereaux; role `finance`): a
 * month and a kind start an export, the section reads it every second until it is done or failed,
 * then offers its link ("Get a new link" signs another). The API lists no past exports: the
 * section lists those started in this tab since it was opened (in memory), each of which can be
 * shown again (a new link).
 */
type Export = Schemas['BordereauExport'];

export function bordereaux({ announce, api, run }: ReturnType<typeof signedInPagesKit>): void {
  const READ_EVERY_MS = 1000;
  const period = $<HTMLInputElement>('period');
  const kind = $<HTMLSelectElement>('kind');
  const refreshLink = $<HTMLButtonElement>('refresh-link');
  period.value = new Date().toISOString().slice(0, 7);

  const KIND: Record<Export['kind'], string> = { premium: 'Premium', claims: 'Claims' };
  let shown: Export | null = null;
  // The exports started in this tab, newest first (the API has no list of them).
  const started = new Map<string, Export>();
  const STATUS: Record<Export['status'], string> = { running: 'Running', done: 'Done', failed: 'Failed' };
  function listStarted(): void {
    const rows = [...started.values()].reverse().map((exported) => {
      const tr = el('tr');
      tr.dataset.exportId = exported.export_id;
      const name = KIND[exported.kind] + ' bordereau ' + exported.period;
      const rowCount = el('td', exported.status === 'done' ? String(exported.rows) : '–');
      rowCount.className = 'number';
      const action = el('td');
      const again = el('button', 'Show');
      again.type = 'button';
      again.className = 'secondary';
      again.setAttribute('aria-label', 'Show the ' + name.toLowerCase() + ' started ' + when(exported.created));
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
      tr.append(
        el('td', exported.period),
        el('td', KIND[exported.kind]),
        el('td', when(exported.created)),
        el('td', STATUS[exported.status]),
        rowCount,
        action,
      );
      return tr;
    });
    $('exports-rows').replaceChildren(...rows);
    $('exports').hidden = rows.length === 0;
  }
  function show(exported: Export): void {
    shown = exported;
    started.set(exported.export_id, exported);
    listStarted();
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
}
