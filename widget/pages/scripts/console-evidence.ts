import { badge, cell, $, el, when, type Schemas, type signedInPagesKit } from './kit.js';
import { labelCells } from './console-tables.js';

/**
 * A claim's evidence in the console's review panel (its markup: console-page.ts, #review; role
 * `claims`): the signals found when it was filed, with their reasons (never refusals), and the
 * customer's documents with their status; a clean one opens through a 5-minute link the API signs
 * (an attachment: the browser downloads it). Every string from the API goes into the DOM as text.
 */
type Claim = Schemas['OperatorClaim'];
type EvidenceFile = Schemas['EvidenceFile'];

const SIGNALS: Record<Claim['signals'][number]['code'], string> = {
  claimed_elsewhere: 'Claimed at another merchant',
  filed_soon_after_purchase: 'Filed soon after purchase',
  event_begun_at_purchase: 'Event had begun at purchase',
};
const STATES: Record<EvidenceFile['status'], { text: string; tone?: 'ok' | 'bad' }> = {
  awaiting_upload: { text: 'Not uploaded' },
  pending: { text: 'Being scanned' },
  clean: { text: 'Clean', tone: 'ok' },
  infected: { text: 'Infected, deleted', tone: 'bad' },
  rejected: { text: 'Rejected', tone: 'bad' },
};
const TYPES: Record<EvidenceFile['content_type'], string> = { 'application/pdf': 'PDF', 'image/jpeg': 'JPEG', 'image/png': 'PNG' };
/** A size as people read it: bytes, KB, or MB to a tenth (whole numbers throughout). */
function size(bytes: number): string {
  if (bytes < 1024) return bytes + ' B';
  if (bytes < 1024 * 1024) return Math.round(bytes / 1024) + ' KB';
  const tenths = Math.round((bytes * 10) / (1024 * 1024));
  return Math.floor(tenths / 10) + '.' + (tenths % 10) + ' MB';
}

export function claimEvidence({ announce, api, run }: ReturnType<typeof signedInPagesKit>) {
  const path = (claimId: string) => '/api/v2/admin/claims/' + encodeURIComponent(claimId) + '/files';

  function showSignals(claim: Claim): void {
    $('review-signals').replaceChildren(
      ...claim.signals.map((signal) => {
        const item = el('li');
        item.append(badge(SIGNALS[signal.code]), ' ' + signal.reason);
        return item;
      }),
    );
    $('review-no-signals').hidden = claim.signals.length > 0;
  }

  function showFiles(claimId: string, files: EvidenceFile[]): void {
    $('review-files').replaceChildren(
      ...files.map((file) => {
        const tr = el('tr');
        const state = STATES[file.status];
        const status = cell('');
        status.append(badge(state.text + (file.rejection ? ' (' + file.rejection.replaceAll('_', ' ') + ')' : ''), state.tone));
        const action = cell('');
        if (file.status === 'clean') {
          const open = el('button', 'Open');
          open.type = 'button';
          open.className = 'secondary';
          open.setAttribute('aria-label', 'Open ' + file.filename);
          open.addEventListener('click', () => void run(() => openFile(claimId, file)));
          action.append(open);
        } else action.append('–');
        tr.append(cell(file.filename), cell(TYPES[file.content_type]), cell(size(file.size), 'number'), status, cell(when(file.created), 'nowrap'), action);
        return tr;
      }),
    );
    labelCells($<HTMLTableElement>('review-files-table'));
    $('review-files-table').hidden = files.length === 0;
    $('review-no-files').hidden = files.length > 0;
  }

  async function openFile(claimId: string, file: EvidenceFile): Promise<void> {
    const link = await api<{ url: string; expires_at: string }>('GET', path(claimId) + '/' + encodeURIComponent(file.file_id) + '/link');
    const a = el('a');
    a.href = link.url;
    a.rel = 'noopener';
    a.click();
    announce(file.filename + ' is downloading (the link works until ' + when(link.expires_at) + ').');
  }

  return {
    /** The review panel shows a claim: its signals at once, its documents when read. */
    show: (claim: Claim): Promise<void> => {
      showSignals(claim);
      return api<{ data: EvidenceFile[] }>('GET', path(claim.claim_id)).then((page) => showFiles(claim.claim_id, page.data));
    },
  };
}
