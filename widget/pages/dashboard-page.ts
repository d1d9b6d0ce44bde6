import { FAVICON_LINK } from './favicon.js';
import { pageScriptTag } from './page-kit.js';

/**
 * `/dashboard`: opt-ins vs opt-outs per day and the conversion rate, drawn as an inline SVG chart
 * with its axes' values; the month's statement, recent orders, the demo client's webhook endpoints
 * (each with "Send test event") and the webhook log. Its script is scripts/dashboard.ts (/assets/dashboard.js).
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
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem; color: #1d2433; }
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
${pageScriptTag('dashboard')}
</body>
</html>`;
}
