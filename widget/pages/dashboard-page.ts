import { FAVICON_LINK } from './favicon.js';

/**
 * `/dashboard`: opt-ins vs opt-outs per day and the conversion rate, drawn as an inline SVG chart
 * with its axes' values; the month's statement, recent orders, the demo client's webhook endpoints
 * (each with "Send test event") and the webhook log.
 */
export function dashboardPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conversion · Order Protection</title>
${FAVICON_LINK}
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; color: #1d2433; }
  .in { fill: #2b5fd9; } .out { fill: #c3cbdc; } .rate { fill: none; stroke: #e07a1f; stroke-width: 2; } .rate-dot { fill: #e07a1f; }
  #chart { display: block; max-width: 100%; height: auto; }
  table { border-collapse: collapse; margin-top: 1rem; }
  /* A table wider than a phone scrolls inside its own box (focusable, so a keyboard scrolls it too) instead of widening the page. */
  .scroll { max-width: 100%; overflow-x: auto; }
  .scroll:focus-visible { outline: 3px solid #e07a1f; outline-offset: 2px; }
  td.date, td.num { white-space: nowrap; } td, th { padding: .25rem .75rem; border-bottom: 1px solid #dde; text-align: right; }
  #orders th, #orders td, #events th, #events td { text-align: left; }
  .axis text { font-size: 12px; fill: #1d2433; } .axis line, .axis path { stroke: #5b6478; }
  .axis .grid { stroke: #e4e7ef; }
  button { font: inherit; white-space: nowrap; padding: .3rem .8rem; border: 1px solid #2b5fd9; border-radius: .3rem; background: #2b5fd9; color: #fff; cursor: pointer; }
  button:focus-visible { outline: 3px solid #e07a1f; outline-offset: 2px; }
  button[disabled] { background: #5b6478; border-color: #5b6478; }
  #endpoints th, #endpoints td { text-align: left; }
  .legend span { display: inline-block; width: .8rem; height: .8rem; margin: 0 .3rem 0 1rem; vertical-align: middle; }
</style>
</head>
<body>
<nav><a href="/">Demo checkout</a></nav>
<main>
<h1>Conversion, last 14 days</h1>
<p id="totals" role="status">Loading…</p>
<p class="legend"><span style="background:#2b5fd9"></span>opted in<span style="background:#c3cbdc"></span>opted out<span style="background:#e07a1f"></span>conversion rate</p>
<svg id="chart" role="img" aria-label="Opt-ins and opt-outs per day (checkouts, left axis) and the conversion rate (right axis); the table below holds the same figures" width="800" height="290" viewBox="0 0 800 290"></svg>
<div class="scroll" role="region" aria-label="Checkouts per day (scrolls sideways)" tabindex="0"><table aria-label="Checkouts per day"><thead><tr><th>Day</th><th>Opted in</th><th>Opted out</th><th>Rate</th></tr></thead><tbody id="rows"></tbody></table></div>
<h2>This month's statement</h2>
<p id="statement-status" role="status">Loading…</p>
<div class="scroll" role="region" aria-label="This month's statement (scrolls sideways)" tabindex="0"><table id="statement" aria-label="This month's statement per currency"><thead><tr><th>Currency</th><th>Premiums written</th><th>Adjustments</th><th>Refunded</th><th>Net premium</th><th>Claims approved</th><th>Claims paid</th><th>Policies issued</th><th>Voided</th></tr></thead><tbody></tbody></table></div>
<h2>Recent orders</h2>
<p id="orders-status" role="status">Loading…</p>
<div class="scroll" role="region" aria-label="Recent orders (scrolls sideways)" tabindex="0"><table id="orders" aria-label="Recent orders and their policies"><thead><tr><th>Order</th><th>Created</th><th>Policies</th></tr></thead><tbody></tbody></table></div>
<h2>Webhook endpoints</h2>
<p>A test event (<code>webhook_endpoint.test</code>) goes to one endpoint alone, signed with its secret, and shows in the log below.</p>
<div class="scroll" role="region" aria-label="Webhook endpoints (scrolls sideways)" tabindex="0"><table id="endpoints" aria-label="The demo client's webhook endpoints"><thead><tr><th>Endpoint</th><th>URL</th><th>Status</th><th>Test</th></tr></thead><tbody></tbody></table></div>
<p id="test-status" role="status" aria-live="polite"></p>
<h2>Recent webhook events</h2>
<p id="events-status" role="status">Loading…</p>
<div class="scroll" role="region" aria-label="Recent webhook events (scrolls sideways)" tabindex="0"><table id="events" aria-label="Recent webhook events and their delivery attempts"><thead><tr><th>Event</th><th>Type</th><th>Delivered</th><th>Attempts</th></tr></thead><tbody></tbody></table></div>
<p id="received-status" role="status"></p>
</main>
<script>
  const day = (d) => d.toISOString().slice(0, 10);
  const to = new Date();
  const from = new Date(Date.now() - 13 * 86400000);
  const chart = document.getElementById('chart');
  // Drawn at the width it is shown at (one unit a CSS pixel), so that its labels keep their size on
  // a phone instead of shrinking with an 800-unit drawing; drawn again when that width changes.
  function drawChart(days) {
    const width = Math.round(Math.min(800, Math.max(280, chart.parentElement.clientWidth)));
    chart.setAttribute('width', width);
    chart.setAttribute('viewBox', '0 0 ' + width + ' 290');
    // The plot's box: checkouts on the left axis, the conversion rate on the right, the days below.
    const left = 48, right = width - 48, top = 12, h = 220, bottom = top + h;
    const w = (right - left) / days.length;
    // A day's label ("11-27") takes about 40 units: on a narrow chart every second or third day is labelled.
    const every = Math.ceil(40 / w);
    const most = Math.max(1, ...days.map((d) => d.opt_in + d.opt_out));
    const step = Math.max(1, Math.ceil(most / 4));
    const max = step * 4;
    const y = (count) => bottom - (count / max) * h;
    let svg = '<g class="axis y-axis">';
    for (let tick = 0; tick <= max; tick += step) {
      svg += '<line class="grid" x1="' + left + '" x2="' + right + '" y1="' + y(tick) + '" y2="' + y(tick) + '"/>';
      svg += '<text x="' + (left - 6) + '" y="' + (y(tick) + 4) + '" text-anchor="end">' + tick + '</text>';
    }
    svg += '<text x="14" y="' + (top + h / 2) + '" text-anchor="middle" transform="rotate(-90 14 ' + (top + h / 2) + ')">Checkouts</text></g>';
    svg += '<g class="axis rate-axis">';
    for (let pct = 0; pct <= 100; pct += 25) svg += '<text x="' + (right + 6) + '" y="' + (bottom - (pct / 100) * h + 4) + '">' + pct + '%</text>';
    svg += '<text x="' + (width - 10) + '" y="' + (top + h / 2) + '" text-anchor="middle" transform="rotate(90 ' + (width - 10) + ' ' + (top + h / 2) + ')">Conversion rate</text></g>';
    const points = [];
    svg += '<g class="axis x-axis"><line x1="' + left + '" x2="' + right + '" y1="' + bottom + '" y2="' + bottom + '"/>';
    // Counted from the last day, so today is always labelled.
    days.forEach((d, i) => { if ((days.length - 1 - i) % every === 0) svg += '<text x="' + (left + i * w + w / 2) + '" y="' + (bottom + 16) + '" text-anchor="middle">' + d.date.slice(5) + '</text>'; });
    svg += '<text x="' + (left + (right - left) / 2) + '" y="' + (bottom + 40) + '" text-anchor="middle">Day (month-day)</text></g>';
    days.forEach((d, i) => {
      const inH = (d.opt_in / max) * h, outH = (d.opt_out / max) * h;
      const gap = Math.min(4, w / 5);
      const x = left + i * w + gap;
      svg += '<rect class="out" x="' + x + '" y="' + (bottom - inH - outH) + '" width="' + (w - 2 * gap) + '" height="' + outH + '"><title>' + d.date + ': ' + d.opt_out + ' opted out</title></rect>';
      svg += '<rect class="in" x="' + x + '" y="' + (bottom - inH) + '" width="' + (w - 2 * gap) + '" height="' + inH + '"><title>' + d.date + ': ' + d.opt_in + ' opted in</title></rect>';
      if (d.conversion_rate !== null) points.push([left + i * w + w / 2, bottom - Number(d.conversion_rate) * h]);
    });
    if (points.length > 1) svg += '<polyline class="rate" points="' + points.map((p) => p.join(',')).join(' ') + '"/>';
    // A dot on each day with a rate: a single day shows too, and a gap between days is not drawn as data.
    for (const [cx, cy] of points) svg += '<circle class="rate-dot" r="4" cx="' + cx + '" cy="' + cy + '"/>';
    chart.innerHTML = svg;
  }
  fetch('/demo/metrics?from=' + day(from) + '&to=' + day(to)).then((r) => r.json()).then((report) => {
    const days = report.days;
    drawChart(days);
    let drawnAt = chart.parentElement.clientWidth;
    window.addEventListener('resize', () => {
      if (chart.parentElement.clientWidth !== drawnAt) drawChart(days);
      drawnAt = chart.parentElement.clientWidth;
    });
    document.getElementById('rows').innerHTML = days.map((d) => '<tr><td class="date">' + d.date + '</td><td class="num">' + d.opt_in + '</td><td class="num">' + d.opt_out + '</td><td class="num">' + (d.conversion_rate === null ? '–' : (Number(d.conversion_rate) * 100).toFixed(1) + '%') + '</td></tr>').join('');
    const t = report.totals;
    document.getElementById('totals').textContent = t.opt_in + ' opted in, ' + t.opt_out + ' opted out, conversion ' + (t.conversion_rate === null ? '–' : (Number(t.conversion_rate) * 100).toFixed(1) + '%');
  }).catch(() => { document.getElementById('totals').textContent = 'The metrics could not be loaded.'; });

  // Merchant text (order numbers) goes in as text, never as HTML.
  const cell = (text, className) => { const td = document.createElement('td'); td.textContent = text; if (className) td.className = className; return td; };
  // Amounts are the API's decimal strings, formatted exactly with their own digits (the currency's minor unit).
  const money = (amount, currency) => {
    const digits = amount.includes('.') ? amount.length - amount.indexOf('.') - 1 : 0;
    try {
      return new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(amount);
    } catch {
      return currency + ' ' + amount;
    }
  };
  fetch('/demo/statement').then((r) => r.json()).then((statement) => {
    const body = document.querySelector('#statement tbody');
    for (const c of statement.currencies) {
      const row = document.createElement('tr');
      row.append(cell(c.currency), ...['premiums_written', 'premium_adjustments', 'premiums_refunded', 'net_premium', 'claims_approved', 'claims_paid'].map((name) => cell(money(c[name], c.currency))), cell(String(c.policies_issued)), cell(String(c.policies_voided)));
      body.append(row);
    }
    document.getElementById('statement-status').textContent = statement.period + ', ' + statement.status + (statement.currencies.length ? '' : ': no premium or claim yet') + ' (entries reach the ledger within a few seconds).';
  }).catch(() => { document.getElementById('statement-status').textContent = 'The statement could not be loaded.'; });

  fetch('/demo/orders').then((r) => r.json()).then((page) => {
    const body = document.querySelector('#orders tbody');
    for (const order of page.data) {
      const row = document.createElement('tr');
      row.append(cell(order.order_number), cell(order.created.slice(0, 19).replace('T', ' '), 'date'), cell(order.policies.map((p) => p.policy_number + ' ' + p.status).join(', ')));
      body.append(row);
    }
    document.getElementById('orders-status').textContent = page.data.length ? (page.data.length === 1 ? '1 recent order' : page.data.length + ' recent orders') + (page.has_more ? ' (more in GET /api/v2/orders)' : '') : 'No orders yet.';
  }).catch(() => { document.getElementById('orders-status').textContent = 'The orders could not be loaded.'; });

  const attempt = (a) => a.at.slice(11, 19) + ' ' + (a.status_code ?? a.error) + ' (' + a.duration_ms + ' ms)';
  // The webhook log, drawn again after a test event; resolves with the page of events it drew.
  const loadEvents = () => fetch('/demo/events').then((r) => r.json()).then((page) => {
    const body = document.querySelector('#events tbody');
    body.replaceChildren();
    for (const event of page.data) {
      const row = document.createElement('tr');
      const delivered = event.delivery_success === true ? 'yes' : event.delivery_success === false ? 'not yet' : 'pending';
      row.append(cell(event.id), cell(event.type), cell(delivered), cell(event.attempts.map(attempt).join(', ')));
      body.append(row);
    }
    document.getElementById('events-status').textContent = page.data.length ? page.data.length + ' recent event' + (page.data.length === 1 ? '' : 's') : 'No events yet.';
    const verified = page.received.filter((r) => r.verified).length;
    document.getElementById('received-status').textContent = 'The demo receiver got ' + page.received.length + (page.received.length === 1 ? ' delivery, ' : ' deliveries, ') + verified + ' with a valid signature.';
    return page;
  });
  loadEvents().catch(() => { document.getElementById('events-status').textContent = 'The events could not be loaded.'; });

  // "Send test event": the API answers 202 at once; the dispatcher sends the event within a second
  // or so, so the log is read again until the event has ended one way or the other (or 15 s pass).
  const testStatus = document.getElementById('test-status');
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  async function sendTest(button) {
    button.disabled = true;
    testStatus.textContent = 'Sending a test event to ' + button.dataset.endpoint + '…';
    try {
      const res = await fetch('/demo/webhook-test', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ endpoint_id: button.dataset.endpoint }) });
      const answer = await res.json();
      if (res.status !== 202) { testStatus.textContent = 'The test event was refused: ' + (answer.error?.message ?? 'HTTP ' + res.status); return; }
      for (let tries = 0; tries < 30; tries++) {
        const page = await loadEvents();
        const event = page.data.find((e) => e.id === answer.id);
        if (event && event.delivery_success !== null) {
          const last = event.attempts[event.attempts.length - 1];
          testStatus.textContent = event.delivery_success
            ? 'Test event ' + answer.id + ' delivered (HTTP ' + last.status_code + '); it is in the webhook log below.'
            : 'Test event ' + answer.id + ' failed (' + (last ? (last.status_code ?? last.error) : 'no attempt') + '); it will be retried, see the webhook log below.';
          return;
        }
        await pause(500);
      }
      testStatus.textContent = 'Test event ' + answer.id + ' accepted; not delivered yet, see the webhook log below.';
    } catch {
      testStatus.textContent = 'The test event could not be sent.';
    } finally {
      button.disabled = false;
      button.focus();
    }
  }
  fetch('/demo/webhook-endpoints').then((r) => r.json()).then((list) => {
    const body = document.querySelector('#endpoints tbody');
    for (const endpoint of list.data) {
      const row = document.createElement('tr');
      const url = cell(endpoint.url);
      url.id = 'url-' + endpoint.id;
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Send test event';
      button.dataset.endpoint = endpoint.id;
      button.setAttribute('aria-describedby', url.id);
      button.addEventListener('click', () => sendTest(button));
      const action = document.createElement('td');
      action.append(button);
      row.append(cell(endpoint.id), url, cell(endpoint.status), action);
      body.append(row);
    }
    if (!list.data.length) testStatus.textContent = 'The demo client has no webhook endpoint.';
  }).catch(() => { testStatus.textContent = 'The webhook endpoints could not be loaded.'; });
</script>
</body>
</html>`;
}
