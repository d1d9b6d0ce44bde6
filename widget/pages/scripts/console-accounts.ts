import { badge, cell, $, el, money, PageError, pause, when, type Ok, type Schemas, type signedInPagesKit } from './kit.js';
import { labelCells } from './console-tables.js';
import { allMerchants, merchantLabel, percent } from './console-merchants.js';

/**
 * The console's accounts (its markup: console-page.ts, section #accounts; role `finance`): a
 * merchant and a month chosen, the month's statement with its balances and standing, the
 * merchant's remittances and the form recording one, its terms versions with the form publishing
 * the next (which previews sample premiums under the version in force and the one in the form,
 * and publishes only what it previewed), and the suspension of its quotes. Every figure is the
 * API's; nothing is computed here but the parsing of the form's text into the API's fields.
 */
type Statement = Schemas['Statement'];
type Remittance = Schemas['Remittance'];
type Version = Schemas['TermsVersion'];
type Preview = Ok<'previewTerms'>;
type Standing = Schemas['ClientStanding'];

/**
 * A payment is a replay of its reference when the list showed it before, or when it was recorded this
 * long before the request was sent (wide: the browser's clock is not the server's).
 */
const REPLAY_SLACK_MS = 300_000;
/** After recording, the statement is read at most this many times, this far apart, until the ledger has booked the payment. */
const BOOKING_READS = 10;
const BOOKING_READ_MS = 500;
/** Rate bands the form takes at most (the API's MAX_RATE_BANDS). */
const MAX_BAND_LINES = 8;
const STANDING: Record<Statement['status'], { text: string; tone?: 'ok' | 'bad' }> = {
  open: { text: 'Open' },
  closed: { text: 'Closed, awaiting payment' },
  paid: { text: 'Paid', tone: 'ok' },
  overdue: { text: 'Overdue', tone: 'bad' },
};

/** "7 0.12" lines and a last "0.085": the API's rate bands (the API judges the numbers; a line of three words is refused here). */
export function parseBands(text: string): { up_to_days?: number; rate: string }[] {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(0, MAX_BAND_LINES + 1);
  return lines.map((line, index) => {
    const words = line.split(/\s+/);
    if (words.length === 1) return { rate: words[0]! };
    if (words.length === 2 && /^\d{1,6}$/.test(words[0]!)) return { up_to_days: Number(words[0]), rate: words[1]! };
    throw new PageError(`Rate bands, line ${index + 1}: write the days and the rate ("7 0.12"), or a rate alone on the last line.`, { param: 'rate_bands' });
  });
}

/** "USD 1.00" lines: the API's minimum premiums. */
export function parseMinimums(text: string): Record<string, string> {
  const minimums: Record<string, string> = {};
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  for (const [index, line] of lines.slice(0, 33).entries()) {
    const words = line.split(/\s+/);
    if (words.length !== 2)
      throw new PageError(`Minimum premium, line ${index + 1}: write a currency and an amount ("USD 1.00").`, { param: 'minimum_premium' });
    minimums[words[0]!.toUpperCase()] = words[1]!;
  }
  return minimums;
}

/** A version's bands as the form writes them. */
export const bandsText = (version: Pick<Version, 'rate_bands'>): string =>
  version.rate_bands.map((band) => (band.up_to_days === undefined ? band.rate : band.up_to_days + ' ' + band.rate)).join('\n');

/** What set a previewed premium, as the table says it: the band's rate, else the minimum or the cost (a rate of 12 % would mislead beside a $15.00 minimum). */
const pricedBy = (price: { rate: string; priced_by: 'rate' | 'minimum' | 'cost' }): string =>
  price.priced_by === 'rate' ? percent(price.rate) : price.priced_by === 'minimum' ? 'minimum' : 'the cost';

const monthName = (period: string): string =>
  new Date(period + '-01T00:00:00Z').toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

export function accounts({ announce, api, run, showError }: ReturnType<typeof signedInPagesKit>) {
  const clientSelect = $<HTMLSelectElement>('account-client');
  const periodInput = $<HTMLInputElement>('account-period');
  const publish = $<HTMLButtonElement>('terms-publish');
  const suspended = new Map<string, boolean>();
  /** The account on screen: its forms act on this merchant. */
  let shown: { clientId: string; period: string; name: string } | null = null;
  /** The body the preview priced: Publish sends exactly it, and any edit of the form asks for a new preview. */
  let previewed: Record<string, unknown> | null = null;
  let publishKey = '';
  let previewCurrency = 'USD';
  periodInput.value = new Date().toISOString().slice(0, 7);
  $<HTMLInputElement>('remit-received').value = new Date().toISOString().slice(0, 10);

  async function loadClients(): Promise<void> {
    const options = (await allMerchants(api)).map((client) => {
      suspended.set(client.client_id, client.suspended);
      const option = el('option', merchantLabel(client.name, client.client_id));
      option.value = client.client_id;
      return option;
    });
    const prompt = el('option', 'Choose a merchant');
    prompt.value = '';
    clientSelect.replaceChildren(prompt, ...options);
  }

  function showStatement(statement: Statement): string {
    const standing = STANDING[statement.status];
    const summary = $('statement-summary');
    summary.replaceChildren(monthName(statement.period) + ': ', badge(standing.text, standing.tone), ' · due ' + statement.due_date);
    $('statement-rows').replaceChildren(
      ...statement.currencies.map((row) => {
        const tr = el('tr');
        tr.append(
          cell(row.currency),
          cell(money(row.net_premium, row.currency), 'money'),
          cell(money(row.commission, row.currency), 'money'),
          cell(money(row.amount_due, row.currency), 'money'),
          cell(money(row.remitted, row.currency), 'money'),
          cell(money(row.opening_balance, row.currency), 'money'),
          cell(money(row.closing_balance, row.currency), 'money'),
        );
        return tr;
      }),
    );
    $('statement-table').hidden = statement.currencies.length === 0;
    if (statement.currencies.length === 0) summary.append('. Nothing moved and nothing was owed.');
    labelCells($<HTMLTableElement>('statement-table'));
    // The preview prices in USD when the merchant sells in it, else in its statement's first currency.
    const currencies = statement.currencies.map((row) => row.currency);
    previewCurrency = currencies.includes('USD') ? 'USD' : (currencies[0] ?? previewCurrency);
    return statement.currencies.map((row) => money(row.closing_balance, row.currency)).join(', ') || 'nothing';
  }

  /** The payments the list shows, by reference. */
  const shownRemittances = new Map<string, Remittance>();
  function showRemittances(remittances: Remittance[], more: boolean): void {
    shownRemittances.clear();
    for (const remittance of remittances) shownRemittances.set(remittance.reference, remittance);
    $('remittance-rows').replaceChildren(
      ...remittances.map((remittance) => {
        const tr = el('tr');
        const standing = cell(remittance.reversal ? '' : 'Received');
        if (remittance.reversal) standing.append(badge('Reversed', 'bad'), ' ' + when(remittance.reversal.reversed_at) + ': ' + remittance.reversal.reason);
        tr.append(
          cell(remittance.received_on, 'nowrap'),
          cell(remittance.reference),
          cell(money(remittance.amount, remittance.currency), 'money'),
          cell(when(remittance.recorded_at), 'nowrap'),
          standing,
        );
        return tr;
      }),
    );
    // The payments that can be reversed: those shown and not reversed yet.
    const reversible = remittances.filter((remittance) => !remittance.reversal);
    const prompt = el('option', reversible.length === 0 ? 'No payment to reverse' : 'Choose a payment');
    prompt.value = '';
    $<HTMLSelectElement>('reverse-reference').replaceChildren(
      prompt,
      ...reversible.map((remittance) => {
        const option = el('option', remittance.reference + ' · ' + money(remittance.amount, remittance.currency) + ' · ' + remittance.received_on);
        option.value = remittance.reference;
        return option;
      }),
    );
    labelCells($<HTMLTableElement>('remittances-table'));
    $('remittances-table').hidden = remittances.length === 0;
    $('remittances-count').textContent =
      remittances.length === 0
        ? 'No payments recorded yet.'
        : more
          ? 'The latest ' + remittances.length + ' (older ones not shown).'
          : remittances.length + (remittances.length === 1 ? ' payment.' : ' payments.');
  }

  function showTerms(versions: Version[], inForce: number | null): void {
    $('terms-rows').replaceChildren(
      ...versions.map((version) => {
        const tr = el('tr');
        const number = cell('v' + version.version);
        if (version.version === inForce) number.append(' ', badge('In force', 'ok'));
        else if (inForce !== null && version.version > inForce) number.append(' ', badge('Scheduled'));
        const bands = version.rate_bands
          .map((band) => (band.up_to_days === undefined ? 'rest ' : '≤ ' + band.up_to_days + ' d ') + percent(band.rate))
          .join('; ');
        const minimums = Object.entries(version.minimum_premium).map(([currency, amount]) => money(amount, currency));
        tr.append(
          number,
          cell(when(version.effective_from), 'nowrap'),
          cell(bands),
          cell(minimums.join(', ') || '–'),
          cell(percent(version.commission_rate), 'number'),
          cell(version.look_period_days + (version.look_period_days === 1 ? ' day' : ' days'), 'number'),
        );
        return tr;
      }),
    );
    labelCells($<HTMLTableElement>('terms-table'));
    // The form starts from the version in force.
    const current = versions.find((version) => version.version === inForce);
    if (current) {
      $<HTMLTextAreaElement>('terms-bands').value = bandsText(current);
      $<HTMLTextAreaElement>('terms-minimums').value = Object.entries(current.minimum_premium)
        .map(([currency, amount]) => currency + ' ' + amount)
        .join('\n');
      $<HTMLInputElement>('terms-commission').value = current.commission_rate;
      $<HTMLInputElement>('terms-look').value = String(current.look_period_days);
      $<HTMLInputElement>('terms-effective').value = '';
    }
    stalePreview();
  }

  function showStanding(clientId: string, isSuspended: boolean, standing?: Standing): void {
    suspended.set(clientId, isSuspended);
    $('standing-text').textContent = isSuspended
      ? 'Quotes are suspended' +
        (standing?.suspended_at ? ' since ' + when(standing.suspended_at) : '') +
        (standing?.suspension_reason ? ' (' + standing.suspension_reason + ')' : '') +
        ': the widget offers nothing and checkouts go on without protection. Sold policies live on.'
      : 'Quotes are offered.';
    $('suspend-form').hidden = isSuspended;
    $('resume-button').hidden = !isSuspended;
  }

  const base = (clientId: string) => '/api/v2/admin/clients/' + encodeURIComponent(clientId);
  async function readStatement(clientId: string, period: string): Promise<string> {
    return showStatement(await api<Statement>('GET', base(clientId) + '/statements/' + encodeURIComponent(period)));
  }
  async function readRemittances(clientId: string): Promise<void> {
    const page = await api<Ok<'listRemittances'>>('GET', base(clientId) + '/remittances?limit=100');
    showRemittances(page.data, page.has_more);
  }
  async function readTerms(clientId: string): Promise<void> {
    const page = await api<Ok<'listTerms'>>('GET', base(clientId) + '/terms?limit=20');
    showTerms(page.data, page.in_force);
  }

  async function show(clientId: string, period: string): Promise<void> {
    await Promise.all([readStatement(clientId, period), readRemittances(clientId), readTerms(clientId)]);
    showStanding(clientId, suspended.get(clientId) ?? false);
    shown = { clientId, period, name: clientSelect.selectedOptions[0]?.textContent ?? clientId };
    $('account-merchant').textContent = shown.name;
    $('account-detail').hidden = false;
    $('statement-title').focus();
  }

  function termsBody(): Record<string, unknown> {
    const effective = $<HTMLInputElement>('terms-effective').value.trim();
    const look = $<HTMLInputElement>('terms-look').value.trim();
    return {
      rate_bands: parseBands($<HTMLTextAreaElement>('terms-bands').value),
      minimum_premium: parseMinimums($<HTMLTextAreaElement>('terms-minimums').value),
      commission_rate: $<HTMLInputElement>('terms-commission').value.trim(),
      // A look period the API judges: a whole number goes as one, anything else as written (and is refused, naming the field).
      look_period_days: /^\d{1,2}$/.test(look) ? Number(look) : look,
      ...(effective ? { effective_from: effective } : {}),
    };
  }
  const publishHint = $('terms-publish-hint');
  function stalePreview(): void {
    previewed = null;
    publish.disabled = true;
    publishHint.textContent = 'Publishing needs a preview of what is in the form now.';
  }
  const termsFields = {
    rate_bands: () => $('terms-bands'),
    minimum_premium: () => $('terms-minimums'),
    commission_rate: () => $('terms-commission'),
    look_period_days: () => $('terms-look'),
    effective_from: () => $('terms-effective'),
  };

  // The account on screen is the one the form names: another merchant or month chosen, or a load
  // that failed, takes it away (its forms act on it) until Show account loads the one chosen.
  function forget(): void {
    shown = null;
    previewed = null;
    $('account-detail').hidden = true;
  }
  clientSelect.addEventListener('change', forget);
  periodInput.addEventListener('input', forget);
  $<HTMLFormElement>('account-form').addEventListener('submit', (event) => {
    event.preventDefault();
    forget();
    void run(() => show(clientSelect.value, periodInput.value), { client_id: () => clientSelect, period: () => periodInput });
  });

  $<HTMLFormElement>('remit-form').addEventListener('submit', (event) => {
    event.preventDefault();
    if (!shown) return;
    const { clientId, name } = shown;
    void run(
      async () => {
        const body = {
          currency: $<HTMLInputElement>('remit-currency').value.trim().toUpperCase(),
          amount: $<HTMLInputElement>('remit-amount').value.trim(),
          reference: $<HTMLInputElement>('remit-reference').value.trim(),
          received_on: $<HTMLInputElement>('remit-received').value,
        };
        // What the current month showed as remitted in this currency before: the payment is booked there.
        const remittedIn = async (period: string) => {
          const statement = await api<Statement>('GET', base(clientId) + '/statements/' + encodeURIComponent(period));
          return { statement, remitted: statement.currencies.find((row) => row.currency === body.currency)?.remitted ?? null };
        };
        const before = await remittedIn(new Date().toISOString().slice(0, 7));
        const sent = Date.now();
        const recorded = await api<Remittance>('POST', base(clientId) + '/remittances', body);
        $<HTMLInputElement>('remit-amount').value = '';
        $<HTMLInputElement>('remit-reference').value = '';
        const listedReferences = new Set(shownRemittances.keys());
        await readRemittances(clientId);
        // The same reference and body again answers the payment recorded then: nothing new was recorded.
        if (listedReferences.has(recorded.reference) || Date.parse(recorded.recorded_at) < sent - REPLAY_SLACK_MS) {
          announce(
            'This reference was already recorded on ' +
              when(recorded.recorded_at) +
              ' for ' +
              money(recorded.amount, recorded.currency) +
              '; nothing new was recorded.',
          );
          return;
        }
        // A payment is booked in the month it is recorded, by the ledger from the table's stream within
        // seconds: the statement of that month is shown, read again until the payment is in it.
        const booked = recorded.recorded_at.slice(0, 7);
        periodInput.value = booked;
        let balance = '';
        for (let reads = 0; reads < BOOKING_READS; reads++) {
          const now = await remittedIn(booked);
          balance = showStatement(now.statement);
          shown = { clientId, period: booked, name };
          if (now.remitted !== null && (booked !== before.statement.period || now.remitted !== before.remitted)) break;
          await pause(BOOKING_READ_MS);
        }
        announce(
          'Remittance recorded for ' +
            name +
            ': ' +
            money(recorded.amount, recorded.currency) +
            ', booked in ' +
            monthName(booked) +
            '. Closing balance so far: ' +
            balance +
            '.',
        );
      },
      {
        currency: () => $('remit-currency'),
        amount: () => $('remit-amount'),
        reference: () => $('remit-reference'),
        received_on: () => $('remit-received'),
      },
    );
  });

  $<HTMLFormElement>('reverse-form').addEventListener('submit', (event) => {
    event.preventDefault();
    if (!shown) return;
    const { clientId, name } = shown;
    void run(
      async () => {
        const body = { reference: $<HTMLSelectElement>('reverse-reference').value, reason: $<HTMLInputElement>('reverse-reason').value.trim() };
        const remittedIn = async (period: string, currency: string) => {
          const statement = await api<Statement>('GET', base(clientId) + '/statements/' + encodeURIComponent(period));
          return { statement, remitted: statement.currencies.find((row) => row.currency === currency)?.remitted ?? null };
        };
        const month = new Date().toISOString().slice(0, 7);
        const before = await remittedIn(month, shownRemittances.get(body.reference)?.currency ?? '');
        const reversed = await api<Remittance>('POST', base(clientId) + '/remittances/reverse', body);
        $<HTMLInputElement>('reverse-reason').value = '';
        await readRemittances(clientId);
        // Booked by the ledger in the month of the reversal, within seconds: that month's statement owes it again.
        const booked = (reversed.reversal?.reversed_at ?? month).slice(0, 7);
        periodInput.value = booked;
        let balance = '';
        for (let reads = 0; reads < BOOKING_READS; reads++) {
          const now = await remittedIn(booked, reversed.currency);
          balance = showStatement(now.statement);
          shown = { clientId, period: booked, name };
          if (booked !== before.statement.period || now.remitted !== before.remitted) break;
          await pause(BOOKING_READ_MS);
        }
        $('remittances-title').focus();
        announce(
          name +
            ': payment ' +
            reversed.reference +
            ' reversed: ' +
            money(reversed.amount, reversed.currency) +
            ' is owed again. Closing balance so far: ' +
            balance +
            '.',
        );
      },
      { reference: () => $('reverse-reference'), reason: () => $('reverse-reason') },
    );
  });

  $('terms-form').addEventListener('input', stalePreview);
  $('terms-preview').addEventListener('click', () => {
    if (!shown) return;
    const { clientId } = shown;
    void run(async () => {
      const body = termsBody();
      const preview = await api<Preview>('POST', base(clientId) + '/terms/preview?currency=' + encodeURIComponent(previewCurrency), body);
      $('preview-cost').textContent = money(preview.samples[0]?.cost ?? '0', preview.currency);
      $('preview-rows').replaceChildren(
        ...preview.samples.map((sample) => {
          const tr = el('tr');
          tr.append(
            cell(sample.days_to_event === null ? 'No date' : sample.days_to_event + (sample.days_to_event === 1 ? ' day away' : ' days away')),
            cell(money(sample.in_force.premium, preview.currency) + ' (' + pricedBy(sample.in_force) + ')', 'money'),
            cell(money(sample.proposed.premium, preview.currency) + ' (' + pricedBy(sample.proposed) + ')', 'money'),
            cell(money(sample.in_force.commission, preview.currency), 'money'),
            cell(money(sample.proposed.commission, preview.currency), 'money'),
          );
          return tr;
        }),
      );
      labelCells($<HTMLTableElement>('preview-table'));
      $('preview').hidden = false;
      previewed = body;
      // One key per previewed body: a Publish pressed again after a lost answer gets the version the first published, not a second.
      publishKey = crypto.randomUUID();
      publish.disabled = false;
      publishHint.textContent = 'Publishes exactly what the preview shows; a change to the form asks for a new preview.';
      $('preview-title').focus();
      announce('Preview ready: compare, then publish.');
    }, termsFields);
  });

  $<HTMLFormElement>('terms-form').addEventListener('submit', (event) => {
    event.preventDefault();
    if (!shown || !previewed) return;
    const { clientId, name } = shown;
    const body = previewed;
    void run(async () => {
      let version: Version;
      try {
        version = await api<Version>('POST', base(clientId) + '/terms', body, { 'idempotency-key': publishKey });
      } catch (err) {
        if (err instanceof PageError && err.status === undefined)
          throw new PageError('The API could not be reached, so the version may or may not be published. Press Publish again: it publishes it at most once.');
        throw err;
      }
      $('preview').hidden = true;
      await readTerms(clientId);
      $('terms-title').focus();
      announce(name + ': version ' + version.version + ' published, in force from ' + when(version.effective_from) + '.');
    }, termsFields);
  });

  $<HTMLFormElement>('suspend-form').addEventListener('submit', (event) => {
    event.preventDefault();
    if (!shown) return;
    const { clientId } = shown;
    const reason = $<HTMLInputElement>('suspend-reason').value.trim();
    void run(
      async () => {
        const standing = await api<Standing>('POST', base(clientId) + '/suspend', reason ? { reason } : {});
        showStanding(clientId, true, standing);
        $('resume-button').focus();
        announce('Quotes suspended.');
      },
      { reason: () => $('suspend-reason') },
    );
  });
  $('resume-button').addEventListener('click', () => {
    if (!shown) return;
    const { clientId } = shown;
    void run(async () => {
      const standing = await api<Standing>('POST', base(clientId) + '/resume', {});
      showStanding(clientId, false, standing);
      $('suspend-reason').focus();
      announce('Quotes offered again.');
    });
  });

  return { load: () => loadClients().catch((err: unknown) => showError(err)) };
}
