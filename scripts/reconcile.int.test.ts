import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CHECKOUT_ITEMS } from '#shared/platform/limits.js';
import { formatMoney, maxItemCost } from '#shared/platform/money/index.js';
import { startService, uniqueOrderNumber, type Service } from '../test/support/service.js';
import { publishTermsVersion } from '../test/support/terms.js';
import { describeDifference, reconcile } from './reconcile.js';

/**
 * `npm run reconcile` past 2^53 minor units (found from outside: it summed in JS numbers, invented
 * a rounding difference and then threw while printing it). A client's whole history in a currency
 * of many minor units passes 2^53 long before a month does: two orders at the item limit in rials.
 */
let service: Service;
const ORDERS = 2;

beforeAll(async () => {
  service = await startService();
});
afterAll(() => service.stop());

describe('npm run reconcile', () => {
  it('agrees past 2^53 minor units, and names a difference there without throwing', async () => {
    const { client_id: clientId } = await service.newClient('Rial Shop');
    // A rate of 100 % with a commission: two orders' premiums pass 2^53 rial cents (one stream batch's too).
    await publishTermsVersion(service, clientId, { rate_bands: [{ rate: '1' }], commission_rate: '0.333333' });
    const cost = formatMoney(maxItemCost('IRR'), 'IRR');
    for (let order = 0; order < ORDERS; order++) {
      const res = await service.call('orders-create', {
        method: 'POST',
        path: '/api/v2/orders',
        clientId,
        body: {
          order_number: uniqueOrderNumber('rial'),
          currency: 'IRR',
          items: Array.from({ length: MAX_CHECKOUT_ITEMS }, (_, i) => ({ name: `Seat ${i}`, reference_number: `r${i}`, cost })),
        },
      });
      expect(res.status, res.body).toBe(201);
    }
    await service.drainStreams();
    const covered = BigInt(ORDERS) * BigInt(MAX_CHECKOUT_ITEMS) * BigInt(maxItemCost('IRR'));
    expect(covered).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER)); // the premiums, at 100 %

    expect((await reconcile(service.tables.doc, service.tables.main)).filter((d) => d.client_id === clientId)).toEqual([]);

    const line = describeDifference({ client_id: clientId, currency: 'IRR', what: 'premium', ledger: covered + 1n, records: covered });
    expect(line).toBe(`${clientId} IRR premium: ledger ${formatMoney(covered + 1n, 'IRR')}, records ${formatMoney(covered, 'IRR')}, difference 0.01`);
  }, 120_000); // two transactions of DynamoDB's 100 actions, and the ledger's stream: 15 s alone, past 30 s on a busy machine
});
