import { $, el, money, when, type Ok, type Schemas, type signedInPagesKit } from './kit.js';
import { labelCells } from './console-tables.js';

/**
 * The console's merchants (its markup: console-page.ts, section #merchants; every staff role): GET
 * /api/v2/admin/clients, read-only, in the API's order (client id), 20 at a time with "Load more":
 * each with its terms in force, its balance per currency, its state and any overdue months.
 * Clients are created, changed and disabled with `npm run client`; never a key is shown (the API
 * sends none).
 */
type Client = Schemas['ClientSummary'];

/** A decimal fraction as a percentage, by moving its point two places (never a float): "0.085" → "8.5%". */
export function percent(rate: string): string {
  const [whole = '0', fraction = ''] = rate.split('.');
  const padded = fraction.padEnd(2, '0');
  const rest = padded.slice(2).replace(/0+$/, '');
  return String(Number(whole + padded.slice(0, 2))) + (rest ? '.' + rest : '') + '%';
}

/** A merchant's terms in force, short: each band ("12% up to 7 days", the base rate last), then its commission. */
export function termsSummary(client: Pick<Client, 'rate_bands' | 'commission_rate'>): { rates: string; commission: string } {
  const rates = client.rate_bands.map(
    (band) => percent(band.rate) + (band.up_to_days === undefined ? '' : ' up to ' + band.up_to_days + (band.up_to_days === 1 ? ' day' : ' days')),
  );
  return { rates: rates.join(', then '), commission: client.commission_rate === '0' ? 'no commission' : 'commission ' + percent(client.commission_rate) };
}

/** A merchant as the console's pickers and lists name it: its name, then its id. */
export const merchantLabel = (name: string, clientId: string): string => name + ' · ' + clientId;

/** A select of merchants reads at most this many pages of 100 clients. */
const MAX_CLIENT_PAGES = 10;

/** Every merchant (at most MAX_CLIENT_PAGES pages of 100), in the API's order: what a merchant select offers. */
export async function allMerchants(api: ReturnType<typeof signedInPagesKit>['api']): Promise<Client[]> {
  const clients: Client[] = [];
  let next: string | null = null;
  for (let pages = 0; pages < MAX_CLIENT_PAGES; pages++) {
    const query = new URLSearchParams({ limit: '100' });
    if (next) query.set('cursor', next);
    const page: Ok<'listClients'> = await api<Ok<'listClients'>>('GET', '/api/v2/admin/clients?' + query.toString());
    clients.push(...page.data);
    next = page.next_cursor;
    if (!page.has_more) break;
  }
  return clients;
}

export function merchants({ announce, api, run }: ReturnType<typeof signedInPagesKit>) {
  let cursor: string | null = null;
  let count = 0;
  function row(client: Client): HTMLTableRowElement {
    const tr = el('tr');
    const name = el('td', client.name);
    const id = el('code', client.client_id);
    id.className = 'sub';
    name.append(id);
    const terms = termsSummary(client);
    const rate = el('td', terms.rates);
    const commission = el('span', terms.commission);
    commission.className = 'sub';
    rate.append(commission);
    const days = el('td', client.look_period_days === 1 ? '1 day' : client.look_period_days + ' days');
    days.className = 'number';
    const balance = el('td', client.balances.map((row) => money(row.balance, row.currency)).join(', ') || '–');
    balance.className = 'money';
    const state = el('td', client.disabled ? 'Disabled' : client.suspended ? 'Quotes suspended' : 'Active');
    if (client.overdue.length > 0) {
      const overdue = el('span', 'Overdue ' + client.overdue.join(', '));
      overdue.className = 'badge bad';
      state.append(' ', overdue);
    }
    tr.append(name, el('td', client.mode === 'live' ? 'Live' : 'Test'), rate, days, balance, state, el('td', when(client.created)));
    return tr;
  }
  async function read(first: boolean): Promise<void> {
    const query = new URLSearchParams({ limit: '20' });
    if (!first && cursor) query.set('cursor', cursor);
    const page = await api<Ok<'listClients'>>('GET', '/api/v2/admin/clients?' + query.toString());
    if (first) {
      $('merchant-rows').replaceChildren();
      count = 0;
    }
    $('merchant-rows').append(...page.data.map(row));
    labelCells($<HTMLTableElement>('merchants-table'));
    count += page.data.length;
    cursor = page.next_cursor;
    $('merchants-more').hidden = !page.has_more;
    $('merchants-table').hidden = count === 0;
    $('merchants-count').textContent =
      count === 0 ? 'No merchants yet.' : count + (count === 1 ? ' merchant' : ' merchants') + (page.has_more ? ' shown; more to load.' : '.');
    if (!first) announce('More merchants loaded.');
  }
  $('merchants-more').addEventListener('click', () => void run(() => read(false)));
  return { load: () => run(() => read(true)) };
}
