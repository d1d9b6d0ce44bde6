import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { concert, quoteFor, startService, uniqueOrderNumber, type Service } from '../../test/support/service.js';
import { publishTermsVersion } from '../../test/support/terms.js';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { reconcile } from '../../scripts/reconcile.js';

/**
 * Issue 38: a quote prices under the terms version in force and seals its number; the order's
 * policies keep it, with their commission; a PATCH prices under the replaced policy's version;
 * nothing sold is ever repriced. The real handlers over DynamoDB Local.
 */
let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());
afterEach(() => vi.useRealTimers());

const DAY = 86_400_000;
/** An event `days` whole days after today (UTC). */
const eventIn = (days: number) => ({ ...concert, start_date: new Date(Date.now() + days * DAY).toISOString().slice(0, 10) });
const seat = (reference: string, cost: string, days?: number) => ({
  name: reference,
  reference_number: reference,
  cost,
  ...(days === undefined ? {} : { event: eventIn(days) }),
});

type Policy = {
  premium: string;
  commission: string;
  terms_version: number;
  premium_delta?: string;
  commission_delta?: string;
  status: string;
  policy_number: string;
};
async function order(clientId: string, items: ReturnType<typeof seat>[], token?: string) {
  return service.call('orders-create', {
    method: 'POST',
    path: '/api/v2/orders',
    clientId,
    body: { order_number: uniqueOrderNumber('terms'), currency: 'USD', items, ...(token ? { token } : {}) },
  });
}
const policiesOf = (res: { json: { policies: Policy[] } }) => res.json.policies;

describe('pricing under a terms version', () => {
  it('keeps an order on the version its quote sealed, whatever is published between quote and order', async () => {
    const shop = await service.newClient('Sealed Shop');
    const items = [seat('a', '100.00'), seat('b', '35.50')];
    const quoted = await quoteFor(service, shop.public_key, items);
    await publishTermsVersion(service, shop.client_id, { rate_bands: [{ rate: '0.2' }], commission_rate: '0.25' });

    const sold = await order(shop.client_id, items, quoted.tokens.opt_in);
    // A container keeps a client's terms a minute (QUOTE_CLIENT_CACHE_MS): a version published now prices quotes within it.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    const requoted = await quoteFor(service, shop.public_key, items);
    const soldLater = await order(shop.client_id, items, requoted.tokens.opt_in);

    expect(sold.status).toBe(201);
    expect(policiesOf(sold).map((policy) => [policy.premium, policy.commission, policy.terms_version])).toEqual([
      ['8.50', '0.00', 1],
      ['3.02', '0.00', 1],
    ]);
    expect(requoted.items.map((item) => item.premium)).toEqual(['20.00', '7.10']);
    // Commission: 20.00 × 0.25 = 5.00; 7.10 × 0.25 = 1.775, half-up 1.78.
    expect(policiesOf(soldLater).map((policy) => [policy.premium, policy.commission, policy.terms_version])).toEqual([
      ['20.00', '5.00', 2],
      ['7.10', '1.78', 2],
    ]);
  });

  it('prices each item in the band of its days to the event, never below the minimum; an event moved to another band refuses the token', async () => {
    const shop = await service.newClient('Banded Shop');
    await publishTermsVersion(service, shop.client_id, {
      rate_bands: [{ up_to_days: 7, rate: '0.15' }, { up_to_days: 60, rate: '0.1' }, { rate: '0.05' }],
      minimum_premium: { USD: '2.00' },
      commission_rate: '0.1',
    });
    const items = [seat('soon', '100.00', 3), seat('later', '100.00', 30), seat('far', '100.00', 200), seat('undated', '100.00'), seat('cheap', '5.00', 3)];

    const quoted = await quoteFor(service, shop.public_key, items);
    const sold = await order(shop.client_id, items, quoted.tokens.opt_in);
    const moved = await order(
      shop.client_id,
      items.map((item) => (item.reference_number === 'far' ? seat('far', '100.00', 3) : item)),
      (await quoteFor(service, shop.public_key, items)).tokens.opt_in,
    );
    // Two items of one cost whose events swap bands: the same total, but not the premiums the customer was shown.
    const swapped = await order(
      shop.client_id,
      items.map((item) =>
        item.reference_number === 'soon' ? seat('soon', '100.00', 30) : item.reference_number === 'later' ? seat('later', '100.00', 3) : item,
      ),
      (await quoteFor(service, shop.public_key, items)).tokens.opt_in,
    );

    expect(quoted.items.map((item) => item.premium)).toEqual(['15.00', '10.00', '5.00', '5.00', '2.00']);
    expect(quoted.premium_total).toBe('37.00');
    expect(policiesOf(sold).map((policy) => policy.premium)).toEqual(['15.00', '10.00', '5.00', '5.00', '2.00']);
    expect(policiesOf(sold).map((policy) => policy.commission)).toEqual(['1.50', '1.00', '0.50', '0.50', '0.20']);
    expect([moved.status, moved.json.error.code, moved.json.error.param]).toEqual([422, 'quote_mismatch', 'items']);
    expect([swapped.status, swapped.json.error.code, swapped.json.error.param]).toEqual([422, 'quote_mismatch', 'items']);
  });

  it("prices an order without a token under the version in force, and a change under the replaced policy's version", async () => {
    const shop = await service.newClient('Changing Shop');
    await publishTermsVersion(service, shop.client_id, { rate_bands: [{ rate: '0.1' }], commission_rate: '0.2' });
    const sold = await order(shop.client_id, [seat('s1', '50.00', 20)]);
    await publishTermsVersion(service, shop.client_id, { rate_bands: [{ rate: '0.3' }], commission_rate: '0.5' });

    const changed = await service.call('orders-change', {
      method: 'PATCH',
      path: `/api/v2/orders/${sold.json.service_order_id}/`,
      pathParameters: { id: sold.json.service_order_id },
      clientId: shop.client_id,
      body: { items: [{ name: 's1b', old_reference_number: 's1', reference_number: 's1b', cost: '80.00' }] },
    });

    expect(policiesOf(sold)[0]).toMatchObject({ premium: '5.00', commission: '1.00', terms_version: 2 });
    expect(changed.status).toBe(200);
    expect(policiesOf(changed)[0]).toMatchObject({ premium: '8.00', commission: '1.60', terms_version: 2, premium_delta: '3.00', commission_delta: '0.60' });
  });

  it('returns the commission on a void and keeps it on a cancel, in the ledger', async () => {
    const shop = await service.newClient('Ledger Shop');
    await publishTermsVersion(service, shop.client_id, { rate_bands: [{ rate: '0.1' }], commission_rate: '0.15' });
    const sold = await order(shop.client_id, [seat('v', '100.00'), seat('c', '60.00')]);
    const [voidable, cancelable] = policiesOf(sold);
    const settle = (action: string, policy: Policy) =>
      service.call('policies-settle', { method: 'POST', path: `/api/v2/policies/${policy.policy_number}/${action}`, clientId: shop.client_id });
    expect((await settle('void', voidable!)).status).toBe(200);
    expect((await settle('cancel', cancelable!)).status).toBe(200);
    await service.drainStreams();

    const ledger = await service.call('ledger-read', {
      method: 'GET',
      path: '/api/v2/ledger',
      clientId: shop.client_id,
      query: { period: new Date().toISOString().slice(0, 7) },
    });
    const rows = (ledger.json.data as { type: string; amount: string; commission: string | null; policy_number: string }[]).map((entry) => [
      entry.type,
      entry.policy_number === voidable!.policy_number ? 'void' : 'cancel',
      entry.amount,
      entry.commission,
    ]);
    expect(rows.sort()).toEqual(
      [
        ['premium_written', 'void', '10.00', '1.50'],
        ['premium_written', 'cancel', '6.00', '0.90'],
        ['premium_refunded', 'void', '-10.00', '-1.50'],
      ].sort(),
    );

    // npm run reconcile: the commission on the ledger's premium entries is the live policies' (the canceled one's 0.90).
    const ours = async () => (await reconcile(service.tables.doc, service.tables.main)).filter((difference) => difference.client_id === shop.client_id);
    expect(await ours()).toEqual([]);
    const stored = (await service.scanBoth()).find(
      (record) => record.entity === 'item' && (record.policy as { policy_number: string }).policy_number === cancelable!.policy_number,
    )!;
    await service.tables.doc.send(
      new UpdateCommand({
        TableName: service.tables.main,
        Key: { PK: stored.PK, SK: stored.SK },
        UpdateExpression: 'SET #p.commission = :wrong',
        ExpressionAttributeNames: { '#p': 'policy' },
        ExpressionAttributeValues: { ':wrong': 91 },
      }),
    );
    expect(await ours()).toEqual([{ client_id: shop.client_id, currency: 'USD', what: 'commission', ledger: 90n, records: 91n }]);
  });
});

describe('a race', () => {
  it('of versions published while quotes and orders are in flight: every order is priced under the version its quote sealed', async () => {
    const items = [seat('r1', '100.00', 10), seat('r2', '33.33')];
    const rates = ['0.11', '0.12', '0.13', '0.14', '0.15'];
    const quoteAndOrder = async (shop: { public_key: string; client_id: string }) => {
      const quoted = await quoteFor(service, shop.public_key, items);
      const sold = await order(shop.client_id, items, quoted.tokens.opt_in);
      return { quoted, sold };
    };
    // Versions 2–5 take effect `gap` apart while checkouts run, and version 6 is published in the
    // middle of them (a cached container prices under the versions it read). All four are published
    // before the first checkout reads the client (a container keeps its versions a minute). The gap
    // is wider than two checkouts take here (measured on another shop: on a loaded machine a pair
    // takes longer than 300 ms), and a run whose publishing outlasted the lead starts again on a
    // new shop with twice the lead: what is checked is pricing across versions, not the machine's speed.
    const warm = await service.newClient('Warm-up Shop');
    const pairStarted = Date.now();
    await Promise.all([quoteAndOrder(warm), quoteAndOrder(warm)]);
    const gap = Math.max(300, 2 * (Date.now() - pairStarted));
    let shop = warm;
    let start = 0;
    for (let attempt = 0; attempt < 3; attempt++) {
      shop = await service.newClient(`Racing Shop ${attempt}`);
      start = Date.now() + 1_000 * 2 ** attempt;
      for (const [i, rate] of rates.slice(0, 4).entries()) {
        await publishTermsVersion(service, shop.client_id, {
          rate_bands: [{ rate }],
          commission_rate: '0.1',
          effective_from: new Date(start + i * gap).toISOString(),
        });
      }
      if (Date.now() < start) break;
    }
    const results: Awaited<ReturnType<typeof quoteAndOrder>>[] = [];
    const soldUnder = (version: number) => results.some(({ sold }) => policiesOf(sold)[0]?.terms_version === version);
    // Until a checkout sold under the last timed version, then one round more; bounded by a deadline.
    const deadline = start + 3 * gap + 30_000;
    await Promise.all([
      (async () => {
        for (let more = 1; more >= 0 && Date.now() < deadline; more -= soldUnder(5) ? 1 : 0) {
          results.push(...(await Promise.all([quoteAndOrder(shop), quoteAndOrder(shop)])));
        }
      })(),
      (async () => {
        // Version 6 while checkouts are in flight: once one sold under version 4.
        while (!soldUnder(4) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        await publishTermsVersion(service, shop.client_id, { rate_bands: [{ rate: rates[4] }], commission_rate: '0.1' });
      })(),
    ]);
    expect(new Set(results.map(({ sold }) => policiesOf(sold)[0]!.terms_version)).size).toBeGreaterThanOrEqual(3);

    for (const { quoted, sold } of results) {
      expect(sold.status).toBe(201);
      const policies = policiesOf(sold);
      // The premiums are the quote's, and the version is the one that gives them.
      expect(policies.map((policy) => policy.premium)).toEqual(quoted.items.map((item) => item.premium));
      const version = policies[0]!.terms_version;
      expect(policies.every((policy) => policy.terms_version === version)).toBe(true);
      const rate = version === 1 ? 0.085 : Number(rates[version - 2]);
      expect(policies[0]!.premium).toBe((100 * rate).toFixed(2));
    }
  }, 120_000); // about 5 s alone; a loaded machine's retries and deadline allow more
});
