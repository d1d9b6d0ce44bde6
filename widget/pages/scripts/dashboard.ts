import { cell, $, el, money, pause, type Ok, type Schemas } from './kit.js';

/**
 * The dashboard's script (dashboard-page.ts, served at /assets/dashboard.js): the last 14 days'
 * opt-ins, opt-outs and conversion rate as a chart and a table, the month's statement, recent
 * orders, the demo client's webhook endpoints (each with "Send test event") and the webhook log,
 * each read from the demo back-end's /demo/* routes. Merchant text goes in as text, never as HTML.
 */
type Metrics = Ok<'getConversion'>;
type Day = Metrics['days'][number];
interface EventLog {
  data: Schemas['WebhookEventDetail'][];
  received: { id: string; type: string; verified: boolean }[];
}
type Attempt = Schemas['WebhookEventDetail']['attempts'][number];
type TestAnswer = { id: string; error?: { message?: string } };

const read = async <T>(path: string): Promise<T> => (await (await fetch(path)).json()) as T;
const day = (d: Date) => d.toISOString().slice(0, 10);
// A rate as a percentage with one decimal, from the API's decimal string (no float on the way).
const percentFormat = new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
const percent = (rate: string | null) => (rate === null ? '–' : percentFormat.format(rate as `${number}`));
const to = new Date();
const from = new Date(Date.now() - 13 * 86400000);
const chart = $('chart') as unknown as SVGSVGElement;
const chartWidth = () => chart.parentElement!.clientWidth;

// Drawn at the width it is shown at (one unit a CSS pixel), so that its labels keep their size on
// a phone instead of shrinking with an 800-unit drawing; drawn again when that width changes.
function drawChart(days: Day[]): void {
  const width = Math.round(Math.min(800, Math.max(280, chartWidth())));
  chart.setAttribute('width', String(width));
  chart.setAttribute('viewBox', '0 0 ' + width + ' 290');
  // The plot's box: checkouts on the left axis, the conversion rate on the right, the days below.
  const left = 48,
    right = width - 48,
    top = 12,
    h = 220,
    bottom = top + h;
  const w = (right - left) / days.length;
  // A day's label ("11-27") takes about 40 units: on a narrow chart every second or third day is labelled.
  const every = Math.ceil(40 / w);
  const most = Math.max(1, ...days.map((d) => d.opt_in + d.opt_out));
  const step = Math.max(1, Math.ceil(most / 4));
  const max = step * 4;
  const y = (count: number) => bottom - (count / max) * h;
  // Numbers and the API's dates only: the drawing is markup of this script's own.
  let svg = '<g class="axis y-axis">';
  for (let tick = 0; tick <= max; tick += step) {
    svg += '<line class="grid" x1="' + left + '" x2="' + right + '" y1="' + y(tick) + '" y2="' + y(tick) + '"/>';
    svg += '<text x="' + (left - 6) + '" y="' + (y(tick) + 4) + '" text-anchor="end">' + tick + '</text>';
  }
  svg += '<text x="14" y="' + (top + h / 2) + '" text-anchor="middle" transform="rotate(-90 14 ' + (top + h / 2) + ')">Checkouts</text></g>';
  svg += '<g class="axis rate-axis">';
  for (let pct = 0; pct <= 100; pct += 25) svg += '<text x="' + (right + 6) + '" y="' + (bottom - (pct / 100) * h + 4) + '">' + pct + '%</text>';
  svg +=
    '<text x="' +
    (width - 10) +
    '" y="' +
    (top + h / 2) +
    '" text-anchor="middle" transform="rotate(90 ' +
    (width - 10) +
    ' ' +
    (top + h / 2) +
    ')">Conversion rate</text></g>';
  const points: [number, number][] = [];
  svg += '<g class="axis x-axis"><line x1="' + left + '" x2="' + right + '" y1="' + bottom + '" y2="' + bottom + '"/>';
  // Counted from the last day, so today is always labelled.
  days.forEach((d, i) => {
    if ((days.length - 1 - i) % every === 0)
      svg += '<text x="' + (left + i * w + w / 2) + '" y="' + (bottom + 16) + '" text-anchor="middle">' + d.date.slice(5) + '</text>';
  });
  svg += '<text x="' + (left + (right - left) / 2) + '" y="' + (bottom + 40) + '" text-anchor="middle">Day (month-day)</text></g>';
  days.forEach((d, i) => {
    const inH = (d.opt_in / max) * h,
      outH = (d.opt_out / max) * h;
    const gap = Math.min(4, w / 5);
    const x = left + i * w + gap;
    svg +=
      '<rect class="out" x="' +
      x +
      '" y="' +
      (bottom - inH - outH) +
      '" width="' +
      (w - 2 * gap) +
      '" height="' +
      outH +
      '"><title>' +
      d.date +
      ': ' +
      d.opt_out +
      ' opted out</title></rect>';
    svg +=
      '<rect class="in" x="' +
      x +
      '" y="' +
      (bottom - inH) +
      '" width="' +
      (w - 2 * gap) +
      '" height="' +
      inH +
      '"><title>' +
      d.date +
      ': ' +
      d.opt_in +
      ' opted in</title></rect>';
    if (d.conversion_rate !== null) points.push([left + i * w + w / 2, bottom - Number(d.conversion_rate) * h]);
  });
  if (points.length > 1) svg += '<polyline class="rate" points="' + points.map((p) => p.join(',')).join(' ') + '"/>';
  // A dot on each day with a rate: a single day shows too, and a gap between days is not drawn as data.
  for (const [cx, cy] of points) svg += '<circle class="rate-dot" r="4" cx="' + cx + '" cy="' + cy + '"/>';
  chart.innerHTML = svg;
}

// Merchant text (order numbers) goes in as text, never as HTML.

read<Metrics>('/demo/metrics?from=' + day(from) + '&to=' + day(to))
  .then((report) => {
    const days = report.days;
    drawChart(days);
    let drawnAt = chartWidth();
    window.addEventListener('resize', () => {
      if (chartWidth() !== drawnAt) drawChart(days);
      drawnAt = chartWidth();
    });
    $('rows').replaceChildren(
      ...days.map((d) => {
        const row = el('tr');
        row.append(cell(d.date, 'date'), cell(String(d.opt_in), 'num'), cell(String(d.opt_out), 'num'), cell(percent(d.conversion_rate), 'num'));
        return row;
      }),
    );
    const t = report.totals;
    $('totals').textContent = t.opt_in + ' opted in, ' + t.opt_out + ' opted out, conversion ' + percent(t.conversion_rate);
  })
  .catch(() => {
    $('totals').textContent = 'The metrics could not be loaded.';
  });

const STATEMENT_AMOUNTS = ['premiums_written', 'premium_adjustments', 'premiums_refunded', 'net_premium', 'claims_approved', 'claims_paid'] as const;
read<Schemas['Statement']>('/demo/statement')
  .then((statement) => {
    const body = document.querySelector('#statement tbody')!;
    for (const c of statement.currencies) {
      const row = el('tr');
      row.append(
        cell(c.currency),
        ...STATEMENT_AMOUNTS.map((name) => cell(money(c[name], c.currency))),
        cell(String(c.policies_issued)),
        cell(String(c.policies_voided)),
      );
      body.append(row);
    }
    $('statement-status').textContent =
      statement.period +
      ', ' +
      statement.status +
      (statement.currencies.length ? '' : ': no premium or claim yet') +
      ' (entries reach the ledger within a few seconds).';
  })
  .catch(() => {
    $('statement-status').textContent = 'The statement could not be loaded.';
  });

read<Ok<'listOrders'>>('/demo/orders')
  .then((page) => {
    const body = document.querySelector('#orders tbody')!;
    for (const order of page.data) {
      const row = el('tr');
      row.append(
        cell(order.order_number),
        cell(order.created.slice(0, 19).replace('T', ' '), 'date'),
        cell(order.policies.map((p) => p.policy_number + ' ' + p.status).join(', ')),
      );
      body.append(row);
    }
    $('orders-status').textContent = page.data.length
      ? (page.data.length === 1 ? '1 recent order' : page.data.length + ' recent orders') + (page.has_more ? ' (more in GET /api/v2/orders)' : '')
      : 'No orders yet.';
  })
  .catch(() => {
    $('orders-status').textContent = 'The orders could not be loaded.';
  });

const attempt = (a: Attempt) => a.at.slice(11, 19) + ' ' + (a.status_code ?? a.error) + ' (' + a.duration_ms + ' ms)';
// The webhook log, drawn again after a test event; resolves with the page of events it drew.
async function loadEvents(): Promise<EventLog> {
  const page = await read<EventLog>('/demo/events');
  const body = document.querySelector('#events tbody')!;
  body.replaceChildren();
  for (const event of page.data) {
    const row = el('tr');
    const delivered = event.delivery_success === true ? 'yes' : event.delivery_success === false ? 'not yet' : 'pending';
    row.append(cell(event.id), cell(event.type), cell(delivered), cell(event.attempts.map(attempt).join(', ')));
    body.append(row);
  }
  $('events-status').textContent = page.data.length ? page.data.length + ' recent event' + (page.data.length === 1 ? '' : 's') : 'No events yet.';
  const verified = page.received.filter((r) => r.verified).length;
  $('received-status').textContent =
    'The demo receiver got ' + page.received.length + (page.received.length === 1 ? ' delivery, ' : ' deliveries, ') + verified + ' with a valid signature.';
  return page;
}
loadEvents().catch(() => {
  $('events-status').textContent = 'The events could not be loaded.';
});

// "Send test event": the API answers 202 at once; the dispatcher sends the event within a second
// or so, so the log is read again until the event has ended one way or the other (or 15 s pass).
const TEST_READS = 30;
const TEST_READ_PAUSE_MS = 500;
const testStatus = $('test-status');
async function sendTest(button: HTMLButtonElement): Promise<void> {
  const endpointId = button.dataset.endpoint ?? '';
  button.disabled = true;
  testStatus.textContent = 'Sending a test event to ' + endpointId + '…';
  try {
    const res = await fetch('/demo/webhook-test', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint_id: endpointId }),
    });
    const answer = (await res.json()) as TestAnswer;
    if (res.status !== 202) {
      testStatus.textContent = 'The test event was refused: ' + (answer.error?.message ?? 'HTTP ' + res.status);
      return;
    }
    for (let tries = 0; tries < TEST_READS; tries++) {
      const page = await loadEvents();
      const event = page.data.find((e) => e.id === answer.id);
      if (event && event.delivery_success !== null) {
        const last = event.attempts[event.attempts.length - 1];
        testStatus.textContent = event.delivery_success
          ? 'Test event ' + answer.id + ' delivered (HTTP ' + last?.status_code + '); it is in the webhook log below.'
          : 'Test event ' +
            answer.id +
            ' failed (' +
            (last ? (last.status_code ?? last.error) : 'no attempt') +
            '); it will be retried, see the webhook log below.';
        return;
      }
      await pause(TEST_READ_PAUSE_MS);
    }
    testStatus.textContent = 'Test event ' + answer.id + ' accepted; not delivered yet, see the webhook log below.';
  } catch {
    testStatus.textContent = 'The test event could not be sent.';
  } finally {
    button.disabled = false;
    button.focus();
  }
}

read<Ok<'listWebhookEndpoints'>>('/demo/webhook-endpoints')
  .then((list) => {
    const body = document.querySelector('#endpoints tbody')!;
    for (const endpoint of list.data) {
      const row = el('tr');
      const url = cell(endpoint.url);
      url.id = 'url-' + endpoint.id;
      const button = el('button', 'Send test event');
      button.type = 'button';
      button.dataset.endpoint = endpoint.id;
      button.setAttribute('aria-describedby', url.id);
      button.addEventListener('click', () => void sendTest(button));
      const action = el('td');
      action.append(button);
      row.append(cell(endpoint.id), url, cell(endpoint.status), action);
      body.append(row);
    }
    if (!list.data.length) testStatus.textContent = 'The demo client has no webhook endpoint.';
  })
  .catch(() => {
    testStatus.textContent = 'The webhook endpoints could not be loaded.';
  });
