import { $, el, label, money, PageError, REASONS, STATUSES, when, type Ok, type Schemas, type signedInPagesKit } from './kit.js';
import { labelCells } from './console-tables.js';
import { claimEvidence } from './console-evidence.js';

/**
 * The console's claim queue (its markup: console-page.ts, section #claims; role `claims`): the queue
 * by status with each claim's age and "Load more", a search by merchant and order number (GET
 * /api/v2/admin/claims?client_id&order_number: every claim of that order, whatever its status, in
 * the same table; "Clear" goes back to the queue), and a review panel with the claim's text and the
 * forms its status allows. After a failed decision or payout the claim is read again, so the panel
 * and its queue row show it as it is now. The claim's signals and documents: console-evidence.ts.
 * Every string from the API goes into the DOM as text.
 */
type Claim = Schemas['OperatorClaim'];
type Summary = Schemas['OperatorClaimSummary'];
type Moved = Schemas['OperatorClaimMoved'];
type Status = Schemas['ClaimStatus'];
type Decision = 'approve' | 'deny' | 'request_documents';

const DONE: Record<Decision, string> = { approve: 'approved', deny: 'denied', request_documents: 'sent back to the customer for documents' };
// The decisions a claim's status allows (the API refuses any other): value, label, the note's hint.
const DECISIONS: Partial<Record<Status, { choices: [Decision, string][]; note: string }>> = {
  Submitted: {
    choices: [
      ['approve', 'Approve'],
      ['deny', 'Deny'],
      ['request_documents', 'Request documents'],
    ],
    note: 'Required to request documents; the customer sees it.',
  },
  DocumentsRequested: { choices: [['deny', 'Deny (the customer has not answered)']], note: 'Optional; the customer sees it.' },
};
const DOCUMENTS_WAIT_MS = 14 * 24 * 60 * 60 * 1000;
/** The merchants the search offers: pages of MERCHANT_PAGE read for its list, at most MERCHANT_PAGES of them. */
const MERCHANT_PAGE = 100;
const MERCHANT_PAGES = 10;

/** How long ago a claim was filed, in the largest whole unit: "3 d", "5 h", "12 min" (under a minute: "just now"). */
export function age(created: string, now = Date.now()): string {
  const minutes = Math.floor((now - Date.parse(created)) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return minutes + ' min';
  const hours = Math.floor(minutes / 60);
  return hours < 24 ? hours + ' h' : Math.floor(hours / 24) + ' d';
}

/** Wires the queue's section; `load()` reads the queue with the chosen status again (the console calls it when the section first opens). */
export function claimQueue(kit: ReturnType<typeof signedInPagesKit>) {
  const { announce, api, run, showError } = kit;
  // The claim's signals and documents (console-evidence.ts), shown with it.
  const evidence = claimEvidence(kit);
  // What the operator view adds to a claim: its order, its merchant, each policy's item and event, its deciders.
  const orderOf = (claim: Summary) => claim.order_number || claim.service_order_id;
  // A test client's claim moves no real money: it says so wherever its merchant is named.
  const merchantOf = (claim: Summary) => (claim.client_name || claim.client_id) + (claim.client_mode === 'test' ? ' (test client)' : '');
  type Policy = Summary['policies'][number];
  const eventOf = (event: Policy['event']) => (event ? event.name + ', ' + event.start_date + ' ' + event.start_time.slice(0, 5) : '–');
  const itemOf = (policy: Policy) => (policy.item ? policy.item.name : policy.reference_number);
  const staff = (identity: string | null) => identity || '–';
  // In the queue, the name an IAM identity ends with (the user, or the role's session name); the panel shows it whole.
  const staffName = (identity: string | null) => (identity ? identity.slice(identity.lastIndexOf('/') + 1) : '–');
  // Before a decision the one operator act is asking for documents: say so, rather than "decided" beside "Submitted".
  const undecided = (status: string) => status === 'Submitted' || status === 'DocumentsRequested';
  const deciderOf = (claim: Pick<Summary, 'status' | 'decided_by'>, name: (identity: string | null) => string) =>
    claim.decided_by && undecided(claim.status) ? 'Asked for documents: ' + name(claim.decided_by) : name(claim.decided_by);
  // A decision's or payout's answer leaves out the claim's context (it never changes): the panel keeps what it showed.
  const moved = (shown: Claim, claim: Moved): Claim => ({
    ...shown,
    ...claim,
    client_name: shown.client_name,
    client_mode: shown.client_mode,
    order_number: shown.order_number,
    policies: shown.policies,
  });
  const claimPath = (claimId: string, action = '') => '/api/v2/admin/claims/' + encodeURIComponent(claimId) + action;
  const read = (claimId: string) => api<Claim>('GET', claimPath(claimId));

  // The queue. Seven columns that fit a desktop's section (the review first, as the row's link; the
  // merchant and the claim id under the order number; the date under the age; the reason under the
  // status), stacked into a card a row on a phone (console-page.ts).
  let listed: { status: Status; cursor: string | null; count: number } = { status: 'Submitted', cursor: null, count: 0 };
  /** The status the table lists, while it lists one (a search by order lists every status). */
  let listing: Status | undefined;
  /** What the count says of the list as loaded (decisions made here since are added to it). */
  let listedCount = '';
  /** The list's count, with the claims decided here since it was loaded (their rows say so). */
  const showCount = () => {
    const decided = $<HTMLTableSectionElement>('rows').querySelectorAll('.moved').length;
    $('queue-count').textContent = listedCount + (decided > 0 ? ' ' + decided + ' decided since.' : '');
  };
  const span = (text: string, className: string) => {
    const node = el('span', text);
    node.className = className;
    return node;
  };
  function row(claim: Summary): HTMLTableRowElement {
    const tr = el('tr');
    tr.dataset.claimId = claim.claim_id;
    const action = el('td');
    const review = el('button', 'Review');
    review.type = 'button';
    review.className = 'secondary';
    review.append(span(' the claim on order ' + orderOf(claim), 'vh'));
    review.addEventListener('click', () => void run(async () => showReview(await read(claim.claim_id), true)));
    action.append(review);
    const order = el('td');
    order.className = 'order';
    const id = el('code', claim.claim_id);
    id.className = 'sub';
    order.append(span(orderOf(claim), 'order-number'), span(merchantOf(claim), 'sub merchant'), id);
    const items = el('td');
    items.className = 'items';
    const list = el('ul');
    list.append(...claim.policies.map((p) => el('li', itemOf(p) + ' · ' + eventOf(p.event))));
    items.append(list);
    const waited = el('td');
    waited.className = 'nowrap';
    waited.append(span(age(claim.created), 'age'), span(when(claim.created), 'sub created'));
    const status = el('td');
    status.append(span(label(STATUSES, claim.status), 'status'), span(label(REASONS, claim.reason), 'sub reason'));
    const amount = el('td', money(claim.amount_claimed, claim.currency));
    amount.className = 'money';
    const decider = el('td', deciderOf(claim, staffName));
    decider.className = 'decided-by';
    tr.append(action, order, items, waited, status, amount, decider);
    return tr;
  }
  function showRows(rows: HTMLTableRowElement[], first: boolean): void {
    const body = $<HTMLTableSectionElement>('rows');
    if (first) {
      body.replaceChildren();
      listed.count = 0;
      $('review').hidden = true;
      announce(''); // what the status line said was of the list this one replaces
    }
    body.append(...rows);
    labelCells($<HTMLTableElement>('queue-table'));
    listed.count += rows.length;
  }
  async function loadPage(first: boolean): Promise<void> {
    const query = new URLSearchParams({ status: listed.status, limit: '20' });
    if (!first) query.set('cursor', listed.cursor ?? '');
    const page = await api<Ok<'listClaims'>>('GET', '/api/v2/admin/claims?' + query.toString());
    showRows(page.data.map(row), first);
    listed.cursor = page.next_cursor;
    $('load-more').hidden = !page.has_more;
    const what = label(STATUSES, listed.status);
    listing = listed.status;
    $('queue-title').textContent = what + ' claims';
    listedCount =
      listed.count === 0 ? 'No ' + what.toLowerCase() + ' claims.' : listed.count + ' shown, oldest first' + (page.has_more ? '; more to load.' : '.');
    showCount();
    $('queue').hidden = false;
    announce(first ? '' : 'More claims loaded.');
  }
  $('load-form').addEventListener('submit', (event) => {
    event.preventDefault();
    listed = { status: $<HTMLSelectElement>('status-filter').value as Status, cursor: null, count: 0 };
    void run(async () => {
      await loadPage(true);
      $('queue-title').focus();
    });
  });
  $('load-more').addEventListener(
    'click',
    () =>
      void run(async () => {
        const before = listed.count;
        await loadPage(false);
        // The last page hides the button that had the focus: it goes to the first row loaded.
        if ($('load-more').hidden) ($<HTMLTableSectionElement>('rows').rows[before]?.querySelector('button') ?? $('queue-title')).focus();
      }),
  );

  // The search: a merchant (the list of GET /api/v2/admin/clients, read when the section opens) and an order number.
  const merchantSelect = $<HTMLSelectElement>('search-client');
  const orderInput = $<HTMLInputElement>('search-order');
  async function loadMerchants(): Promise<void> {
    const options: HTMLOptionElement[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < MERCHANT_PAGES; page++) {
      const query = new URLSearchParams({ limit: String(MERCHANT_PAGE) });
      if (cursor) query.set('cursor', cursor);
      const clients = await api<Ok<'listClients'>>('GET', '/api/v2/admin/clients?' + query.toString());
      for (const client of clients.data) {
        const option = el('option', client.name + (client.mode === 'test' ? ' (test client)' : ''));
        option.value = client.client_id;
        options.push(option);
      }
      cursor = clients.next_cursor;
      if (!clients.has_more) break;
    }
    const choose = el('option', 'Choose a merchant');
    choose.value = '';
    merchantSelect.replaceChildren(choose, ...options);
  }
  $('search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void run(
      async () => {
        const clientId = merchantSelect.value;
        const orderNumber = orderInput.value.trim();
        if (!clientId) throw new PageError('Choose the merchant whose order it is.', { param: 'client_id' });
        if (!orderNumber) throw new PageError('Type the order number as the merchant wrote it.', { param: 'order_number' });
        const shop = merchantSelect.selectedOptions[0]?.textContent ?? clientId;
        const found = await api<Ok<'listClaims'>>(
          'GET',
          '/api/v2/admin/claims?' + new URLSearchParams({ client_id: clientId, order_number: orderNumber }).toString(),
        );
        showRows(found.data.map(row), true);
        listing = undefined;
        $('load-more').hidden = true;
        $('queue-title').textContent = 'Claims on order ' + orderNumber + ' at ' + shop;
        $('queue-count').textContent =
          found.data.length === 0
            ? 'No claim for order ' + orderNumber + ' at ' + shop + '.'
            : found.data.length + (found.data.length === 1 ? ' claim' : ' claims') + ' on this order, oldest first, in every status.';
        $('queue').hidden = false;
        $('search-clear').hidden = false;
        $('queue-title').focus();
      },
      { client_id: () => merchantSelect, order_number: () => orderInput },
    );
  });
  $('search-clear').addEventListener('click', () => {
    $<HTMLFormElement>('search-form').reset();
    $('search-clear').hidden = true;
    void run(async () => {
      listed = { status: $<HTMLSelectElement>('status-filter').value as Status, cursor: null, count: 0 };
      await loadPage(true);
      $('queue-title').focus();
      announce('Back to the queue.');
    });
  });

  // One claim.
  let current: Claim | null = null;
  // The claim and status the forms were built for.
  let formsFor: string | null = null;
  function showReview(claim: Claim, focus: boolean): void {
    current = claim;
    $('review-title').textContent = 'Claim on order ' + orderOf(claim) + ' (' + claim.claim_id + ')';
    $('review-status').textContent = label(STATUSES, claim.status);
    $('review-status').dataset.status = claim.status;
    $('review-reason').textContent = label(REASONS, claim.reason);
    $('review-client').textContent = merchantOf(claim) + (claim.client_name ? ' · ' + claim.client_id : '');
    $('review-order').textContent = claim.order_number || '–';
    $('review-order-id').textContent = claim.service_order_id;
    $('review-amount').textContent = money(claim.amount_claimed, claim.currency);
    $('review-approved').textContent = claim.amount_approved === null ? '–' : money(claim.amount_approved, claim.currency);
    $('review-payout').textContent = claim.payout_reference || '–';
    $('review-created').textContent = when(claim.created);
    $('review-decided-by').textContent = deciderOf(claim, staff);
    $('review-paid-by').textContent = staff(claim.paid_by);
    $('review-description').textContent = claim.text_erased ? '(erased 90 days after the claim closed)' : claim.description || '';
    $('review-policies').replaceChildren(
      ...claim.policies.map((p) => {
        const tr = el('tr');
        const coverage = el('td', money(p.coverage_amount, claim.currency));
        coverage.className = 'money';
        tr.append(el('td', p.policy_number), el('td', p.item ? p.item.name : '–'), el('td', eventOf(p.event)), el('td', p.reference_number), coverage);
        return tr;
      }),
    );
    labelCells($<HTMLTableElement>('review-policies-table'));
    $('review-messages').replaceChildren(
      ...claim.messages.map((m) => el('li', (m.from === 'operator' ? 'Operator' : 'Customer') + ', ' + when(m.at) + ': ' + m.text)),
    );
    $('review-no-messages').hidden = claim.messages.length > 0;
    $('review-history').replaceChildren(...claim.history.map((h) => el('li', label(STATUSES, h.status) + ', ' + when(h.at) + ', by the ' + h.by)));
    // Read beside the action that showed the claim (run takes one action at a time).
    if (focus) evidence.show(claim).catch((err: unknown) => showError(err));

    // The forms are built again for another claim or a new status; the same claim read again keeps what was typed.
    const forms = claim.claim_id + ' ' + claim.status;
    if (focus || forms !== formsFor) {
      formsFor = forms;
      showForms(claim);
    }
    $('review').hidden = false;
    // The queue's row follows the claim.
    const tr = Array.from($<HTMLTableSectionElement>('rows').rows).find((r) => r.dataset.claimId === claim.claim_id);
    if (tr) {
      tr.querySelector('.status')!.textContent = label(STATUSES, claim.status);
      tr.querySelector('.decided-by')!.textContent = deciderOf(claim, staffName);
      // Decided here, a claim no longer has the status the table lists: its row stays until the list
      // is loaded again (so the decision is seen), and says why it will go.
      tr.querySelector('.moved')?.remove();
      if (listing !== undefined) {
        if (claim.status !== listing)
          tr.querySelector('.reason')!.after(span('No longer ' + label(STATUSES, listing).toLowerCase() + ': leaves this list at the next Load.', 'sub moved'));
        showCount();
      }
    }
    if (focus) $('review-title').focus();
  }
  function showForms(claim: Claim): void {
    const allowed = DECISIONS[claim.status];
    $<HTMLFormElement>('decision-form').reset();
    $<HTMLFormElement>('paid-form').reset();
    $('decision-form').hidden = !allowed;
    $('paid-form').hidden = claim.status !== 'Approved';
    const choices = allowed ? allowed.choices : [];
    $('decision-options').replaceChildren(
      ...choices.map(([value, text]) => {
        const choice = el('label');
        const radio = el('input');
        radio.type = 'radio';
        radio.name = 'decision';
        radio.value = value; // none ticked for the operator: a decision is chosen, never given (the lone choice is a deny)
        choice.append(radio, ' ' + text);
        return choice;
      }),
    );
    $('amount-field').hidden = !choices.some(([value]) => value === 'approve');
    $<HTMLInputElement>('amount').value = claim.amount_claimed;
    $('note-hint').textContent = allowed ? allowed.note : '';
    // Awaiting documents: when they were asked for, and from when the API lets the claim be denied without them.
    const asked = claim.status === 'DocumentsRequested' ? claim.history.findLast((h) => h.status === 'DocumentsRequested') : undefined;
    $('decision-hint').hidden = !asked;
    $('decision-hint').textContent = asked
      ? 'Documents were requested on ' +
        when(asked.at) +
        '. If the customer has not answered, the claim can be denied from ' +
        when(new Date(Date.parse(asked.at) + DOCUMENTS_WAIT_MS).toISOString()) +
        ', 14 days after the request.'
      : '';
  }
  /** The claim in the panel: its forms are on screen only with one. */
  const shown = (): Claim => {
    if (!current) throw new PageError('Review a claim first.');
    return current;
  };
  // A decision or payout the API refused (4xx): the claim is read again, so the panel and its row show it
  // as it is now (decided by a colleague, say); then the refusal is shown (run's showError) over it.
  async function post(path: string, body: unknown): Promise<Moved> {
    try {
      return await api<Moved>('POST', path, body);
    } catch (err) {
      if (err instanceof PageError && err.status !== undefined && err.status >= 400 && err.status < 500) {
        try {
          showReview(await read(shown().claim_id), false);
        } catch {
          // The refusal is what the operator needs to see; the panel stays as it was.
        }
      }
      throw err;
    }
  }
  const radios = () => Array.from(document.querySelectorAll<HTMLInputElement>('#decision-form input[name=decision]'));
  $('decision-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const chosen = radios().find((r) => r.checked);
    void run(
      async () => {
        if (!chosen) {
          const choices = DECISIONS[shown().status]?.choices ?? [];
          throw new PageError(choices.length === 1 ? 'Tick "' + choices[0]![1] + '" to submit it.' : 'Choose a decision: approve, deny or request documents.', {
            param: 'decision',
          });
        }
        const decision = chosen.value as Decision;
        const claimId = shown().claim_id;
        // Denying an unanswered claim: the API would also deny it if the customer has answered since
        // (it is Submitted again), so the claim is read first and a moved one shown instead.
        if (formsFor === claimId + ' DocumentsRequested') {
          const now = await read(claimId);
          if (now.status !== 'DocumentsRequested') {
            showReview(now, false);
            throw new PageError('The claim changed: it is now ' + label(STATUSES, now.status) + '. Nothing was decided; review it again.');
          }
        }
        const body: { decision: Decision; amount?: string; note?: string } = { decision };
        const amount = $<HTMLInputElement>('amount').value.trim();
        const note = $<HTMLTextAreaElement>('note').value.trim();
        if (decision === 'approve' && amount) body.amount = amount;
        if (note) body.note = note;
        const claim = moved(shown(), await post(claimPath(claimId, '/decision'), body));
        showReview(claim, false);
        $('review-title').focus();
        announce('Claim ' + claim.claim_id + ' ' + DONE[decision] + '. Status: ' + label(STATUSES, claim.status) + '.');
      },
      { decision: () => radios()[0], amount: () => $('amount'), note: () => $('note') },
    );
  });
  $('paid-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void run(
      async () => {
        const claimId = shown().claim_id;
        const claim = moved(shown(), await post(claimPath(claimId, '/paid'), { payout_reference: $<HTMLInputElement>('payout-reference').value.trim() }));
        showReview(claim, false);
        $('review-title').focus();
        announce('Payout recorded for claim ' + claim.claim_id + '. Status: ' + label(STATUSES, claim.status) + '.');
      },
      { payout_reference: () => $('payout-reference') },
    );
  });
  return {
    /** Reads the queue with the chosen status, from its start. */
    load: () => {
      // The search's merchants are read beside the queue, not as one action with it: while a long
      // list of merchants still read, the queue looked ready and a click on Load did nothing.
      loadMerchants().catch((err: unknown) => showError(err));
      return run(async () => {
        listed = { status: $<HTMLSelectElement>('status-filter').value as Status, cursor: null, count: 0 };
        await loadPage(true);
      });
    },
  };
}
