import { $, operatorPagesKit, pause, PageError, when, type Schemas } from './kit.js';

/**
 * The operator's bordereaux page's script (admin-bordereaux-page.ts, served at
 * /assets/admin-bordereaux.js): a month and a kind start an export, the page reads it every
 * second until it is done or failed, then offers its link ("Get a new link" signs another).
 */
type Export = Schemas['BordereauExport'];

// kit.ts: announce, clearError, showError, request, run; the operator key and api().
const { announce, api, keepKey, run } = operatorPagesKit();
const READ_EVERY_MS = 1000;
const period = $<HTMLInputElement>('period');
const kind = $<HTMLSelectElement>('kind');
const refreshLink = $<HTMLButtonElement>('refresh-link');
period.value = new Date().toISOString().slice(0, 7);

const KIND: Record<Export['kind'], string> = { premium: 'Premium', claims: 'Claims' };
let shown: Export | null = null;
function show(exported: Export): void {
  shown = exported;
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
  keepKey();
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
