/** `/dashboard`: opt-ins vs opt-outs per day and the conversion rate, drawn as an inline SVG chart. */
export function dashboardPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Conversion · Order Protection</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem; color: #1d2433; }
  .in { fill: #2b5fd9; } .out { fill: #c3cbdc; } .rate { fill: none; stroke: #e07a1f; stroke-width: 2; }
  table { border-collapse: collapse; margin-top: 1rem; } td, th { padding: .25rem .75rem; border-bottom: 1px solid #dde; text-align: right; }
  #orders th, #orders td, #events th, #events td { text-align: left; }
  .legend span { display: inline-block; width: .8rem; height: .8rem; margin: 0 .3rem 0 1rem; vertical-align: middle; }
</style>
</head>
<body>
<nav><a href="/">Demo checkout</a></nav>
<main>
<h1>Conversion, last 14 days</h1>
<p id="totals" role="status">Loading…</p>
<p class="legend"><span style="background:#2b5fd9"></span>opted in<span style="background:#c3cbdc"></span>opted out<span style="background:#e07a1f"></span>conversion rate</p>
<svg id="chart" role="img" aria-label="Opt-ins and opt-outs per day" width="800" height="260" viewBox="0 0 800 260"></svg>
<table aria-label="Checkouts per day"><thead><tr><th>Day</th><th>Opted in</th><th>Opted out</th><th>Rate</th></tr></thead><tbody id="rows"></tbody></table>
<h2>This month's statement</h2>
<p id="statement-status" role="status">Loading…</p>
<table id="statement" aria-label="This month's statement per currency"><thead><tr><th>Currency</th><th>Premiums written</th><th>Adjustments</th><th>Refunded</th><th>Net premium</th><th>Claims approved</th><th>Claims paid</th><th>Policies issued</th><th>Voided</th></tr></thead><tbody></tbody></table>
<h2>Recent orders</h2>
<p id="orders-status" role="status">Loading…</p>
<table id="orders" aria-label="Recent orders and their policies"><thead><tr><th>Order</th><th>Created</th><th>Policies</th></tr></thead><tbody></tbody></table>
<h2>Recent webhook events</h2>
<p id="events-status" role="status">Loading…</p>
<table id="events" aria-label="Recent webhook events and their delivery attempts"><thead><tr><th>Event</th><th>Type</th><th>Delivered</th><th>Attempts</th></tr></thead><tbody></tbody></table>
<p id="received-status" role="status"></p>
</main>
<script>
  const day = (d) => d.toISOString().slice(0, 10);
  const to = new Date();
  const from = new Date(Date.now() - 13 * 86400000);
  fetch('/demo/metrics?from=' + day(from) + '&to=' + day(to)).then((r) => r.json()).then((report) => {
    const days = report.days;
    const max = Math.max(1, ...days.map((d) => d.opt_in + d.opt_out));
    const w = 800 / days.length, h = 220;
    let svg = '';
    const points = [];
    days.forEach((d, i) => {
      const inH = (d.opt_in / max) * h, outH = (d.opt_out / max) * h;
      svg += '<rect class="out" x="' + (i * w + 4) + '" y="' + (h - inH - outH) + '" width="' + (w - 8) + '" height="' + outH + '"><title>' + d.date + ': ' + d.opt_out + ' opted out</title></rect>';
      svg += '<rect class="in" x="' + (i * w + 4) + '" y="' + (h - inH) + '" width="' + (w - 8) + '" height="' + inH + '"><title>' + d.date + ': ' + d.opt_in + ' opted in</title></rect>';
      svg += '<text x="' + (i * w + w / 2) + '" y="245" font-size="10" text-anchor="middle">' + d.date.slice(5) + '</text>';
      if (d.conversion_rate !== null) points.push((i * w + w / 2) + ',' + (h - Number(d.conversion_rate) * h));
    });
    if (points.length > 1) svg += '<polyline class="rate" points="' + points.join(' ') + '"/>';
    document.getElementById('chart').innerHTML = svg;
    document.getElementById('rows').innerHTML = days.map((d) => '<tr><td>' + d.date + '</td><td>' + d.opt_in + '</td><td>' + d.opt_out + '</td><td>' + (d.conversion_rate ?? '–') + '</td></tr>').join('');
    const t = report.totals;
    document.getElementById('totals').textContent = t.opt_in + ' opted in, ' + t.opt_out + ' opted out, conversion ' + (t.conversion_rate === null ? '–' : (Number(t.conversion_rate) * 100).toFixed(1) + '%');
  }).catch(() => { document.getElementById('totals').textContent = 'The metrics could not be loaded.'; });

  // Merchant text (order numbers) goes in as text, never as HTML.
  const cell = (text) => { const td = document.createElement('td'); td.textContent = text; return td; };
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
      row.append(cell(order.order_number), cell(order.created.slice(0, 19).replace('T', ' ')), cell(order.policies.map((p) => p.policy_number + ' ' + p.status).join(', ')));
      body.append(row);
    }
    document.getElementById('orders-status').textContent = page.data.length ? (page.data.length === 1 ? '1 recent order' : page.data.length + ' recent orders') + (page.has_more ? ' (more in GET /api/v2/orders)' : '') : 'No orders yet.';
  }).catch(() => { document.getElementById('orders-status').textContent = 'The orders could not be loaded.'; });

  const attempt = (a) => a.at.slice(11, 19) + ' ' + (a.status_code ?? a.error) + ' (' + a.duration_ms + ' ms)';
  fetch('/demo/events').then((r) => r.json()).then((page) => {
    const body = document.querySelector('#events tbody');
    for (const event of page.data) {
      const row = document.createElement('tr');
      const delivered = event.delivery_success === true ? 'yes' : event.delivery_success === false ? 'not yet' : 'pending';
      row.append(cell(event.id), cell(event.type), cell(delivered), cell(event.attempts.map(attempt).join(', ')));
      body.append(row);
    }
    document.getElementById('events-status').textContent = page.data.length ? page.data.length + ' recent event' + (page.data.length === 1 ? '' : 's') : 'No events yet.';
    const verified = page.received.filter((r) => r.verified).length;
    document.getElementById('received-status').textContent = 'The demo receiver got ' + page.received.length + (page.received.length === 1 ? ' delivery, ' : ' deliveries, ') + verified + ' with a valid signature.';
  }).catch(() => { document.getElementById('events-status').textContent = 'The events could not be loaded.'; });
</script>
</body>
</html>`;
}
