import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIMS_COLUMNS, PREMIUM_COLUMNS } from '#shared/bordereaux/index.js';
import { ledgerKey, orderItemKey } from '#shared/platform/dynamo/keys.js';
import { freshBucket } from '../../test/support/dynamo.js';
import { asOperator, decide, fileClaim, sessionToken, type ClaimShop } from '../../test/support/claims.js';
import { cartItems, startService, uniqueOrderNumber, type Service } from '../../test/support/service.js';

/**
 * The bordereaux end to end, as an operator gets them: the export started through its route, run by
 * its stream consumer into the local S3 (s3rver), fetched through the presigned link, and read as
 * CSV: every row there, the totals equal to the statement, nothing personal, test clients left out.
 */
let service: Service;
beforeAll(async () => {
  await freshBucket();
  service = await startService();
});
afterAll(() => service.stop());

const period = new Date().toISOString().slice(0, 7);
const PEOPLE = { first_name: 'Claire', last_name: 'Mantovani', phone: '+44 20 7946 0958' };
const DESCRIPTION = 'Fever the night before the concert, see the doctor note.';

const operator = (method: 'GET' | 'POST', path: string, body?: unknown, who: string | null = 'ops@example.com') =>
  service.call('bordereaux-admin', {
    method,
    path,
    ...(who ? { operator: who } : {}),
    ...(body === undefined ? {} : { body }),
    ...(path.split('/').length > 5 ? { pathParameters: { export_id: path.split('/').at(-1)! } } : {}),
  });

async function order(shop: ClaimShop, costs: string[], currency: string, email: string, orderNumber = uniqueOrderNumber('bdx')) {
  const res = await service.call('orders-create', {
    method: 'POST',
    path: '/api/v2/orders',
    clientId: shop.clientId,
    body: { order_number: orderNumber, currency, items: cartItems(...costs), customer: { ...PEOPLE, email } },
  });
  expect(res.status, res.body).toBe(201);
  return { ...res.json, order_number: orderNumber, email } as {
    service_order_id: string;
    order_number: string;
    email: string;
    policies: { policy_number: string; coverage_amount: string; premium: string; commission: string; terms_version: number }[];
  };
}

async function claim(shop: ClaimShop, placed: Awaited<ReturnType<typeof order>>, index: number, decision: 'approve' | 'deny' | 'pay', amount?: string) {
  const token = await sessionToken(service, shop, placed);
  const filed = await fileClaim(service, token, { policy_numbers: [placed.policies[index]!.policy_number], description: DESCRIPTION });
  expect(filed.status, filed.body).toBe(201);
  const decided = await decide(service, filed.json.claim_id, {
    decision: decision === 'deny' ? 'deny' : 'approve',
    ...(amount ? { amount } : {}),
    note: 'Doctor note seen.',
  });
  expect(decided.status, decided.body).toBe(200);
  if (decision === 'pay')
    expect((await asOperator(service, 'POST', `/api/v2/admin/claims/${filed.json.claim_id}/paid`, { payout_reference: 'PAY-1' })).status).toBe(200);
  return filed.json.claim_id as string;
}

/** RFC 4180, as a spreadsheet reads it: quoted fields may hold commas, quotes (doubled) and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (quoted && c === '"') quoted = false;
    else if (quoted) field += c;
    else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      rows.push([...row, field]);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  expect(field, 'the last line ends with CRLF').toBe('');
  return rows;
}

/** Starts an export, runs the stream consumers (the export among them), and fetches the CSV through the link. */
async function exportOf(kind: 'premium' | 'claims', month = period) {
  const started = await operator('POST', '/api/v2/admin/bordereaux', { period: month, kind });
  expect(started.status, started.body).toBe(202);
  expect(started.json).toMatchObject({ period: month, kind, status: 'running', rows: null, url: null });
  await service.drainStreams();
  const done = await operator('GET', `/api/v2/admin/bordereaux/${started.json.export_id}`);
  expect(done.status, done.body).toBe(200);
  expect(done.json).toMatchObject({ status: 'done', failure: null });
  const url = new URL(done.json.url);
  expect(url.hostname).toBe('127.0.0.1'); // the local S3, path-style
  expect(url.pathname).toMatch(new RegExp(`^/${process.env.BORDEREAUX_BUCKET}/bordereaux/${month}/${kind}-bx_`));
  expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
  expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  const signedAt = url.searchParams.get('X-Amz-Date')!.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6.000Z');
  expect(Date.parse(done.json.url_expires_at) - Date.parse(signedAt)).toBe(900_000); // the link's own expiry
  expect(done.headers['cache-control']).toBe('no-store'); // the link is a credential for 15 minutes
  expect(done.json.period_status).toBe(month === period ? 'open' : 'closed'); // as the export read the month
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${kind}-bordereau-${month}.csv"`);
  const text = await res.text();
  const [header, ...rows] = parseCsv(text);
  expect(rows.length).toBe(done.json.rows);
  return { header, rows, text, record: done.json };
}

const minor = (amount: string) => BigInt(amount.replace('.', ''));
const sumBy = (rows: string[][], currencyAt: number, amountAt: number) => {
  const sums = new Map<string, bigint>();
  for (const row of rows) if (row[amountAt] !== '') sums.set(row[currencyAt]!, (sums.get(row[currencyAt]!) ?? 0n) + minor(row[amountAt]!));
  return sums;
};

describe('bordereaux', () => {
  it('exports every live premium entry and claim of the month through a presigned link, totals equal to the statements, nothing personal, no test client', async () => {
    const liveKeys = await service.newClient('Live Shop', undefined, 'live');
    const live: ClaimShop = { clientId: liveKeys.client_id, publicKey: liveKeys.public_key };
    const secondKeys = await service.newClient('Second Live Shop', undefined, 'live');
    const second: ClaimShop = { clientId: secondKeys.client_id, publicKey: secondKeys.public_key };
    const testKeys = await service.newClient('Test Shop');
    const testShop: ClaimShop = { clientId: testKeys.client_id, publicKey: testKeys.public_key };

    // A merchant's order number is free text on one line: a spreadsheet formula and CSV's own characters
    // (a line break is refused at the API; the CSV's quoting of one is bordereau.test.ts's).
    const a = await order(live, ['40.00', '25.00'], 'USD', 'anna.person@example.org', `=HYPERLINK("http://x.example"),"a";${uniqueOrderNumber()}`);
    const b = await order(live, ['100.00'], 'USD', 'bob.person@example.org');
    const c = await order(live, ['1234', '5000', '700'], 'JPY', 'chika.person@example.org');
    const d = await order(second, ['12.345'], 'KWD', 'dana.person@example.org');
    const t = await order(testShop, ['80.00'], 'USD', 'test.person@example.org');
    const up = await service.call('orders-change', {
      method: 'PATCH',
      path: `/api/v2/orders/${a.service_order_id}`,
      pathParameters: { id: a.service_order_id },
      clientId: live.clientId,
      body: { items: [{ name: 'Up', old_reference_number: 'seat-1', reference_number: 'seat-1b', cost: '60.00' }] },
    });
    expect(up.status, up.body).toBe(200);
    const voided = await service.call('policies-settle', {
      method: 'POST',
      path: `/api/v2/policies/${b.policies[0]!.policy_number}/void`,
      pathParameters: { policy_number: b.policies[0]!.policy_number, action: 'void' },
      clientId: live.clientId,
    });
    expect(voided.status, voided.body).toBe(200);
    const claims = [
      await claim(live, c, 0, 'pay'),
      await claim(live, c, 1, 'deny'),
      await claim(live, a, 1, 'approve', '20.00'),
      await claim(second, d, 0, 'pay'),
    ];
    const testClaim = await claim(testShop, t, 0, 'pay');
    await service.drainStreams();

    // An entry written before entries kept their policy's facts, of an item stored before items
    // carried their order number: the export reads them from the item and the order.
    const old = c.policies[2]!;
    const ledger = await service.call('ledger-read', { method: 'GET', path: '/api/v2/ledger', clientId: live.clientId, query: { period, limit: '100' } });
    const oldEntry = ledger.json.data.find((entry: { policy_number: string }) => entry.policy_number === old.policy_number);
    await service.tables.doc.send(
      new UpdateCommand({
        TableName: service.tables.main,
        Key: ledgerKey(live.clientId, period, oldEntry.id, oldEntry.created),
        UpdateExpression: 'REMOVE order_number, coverage_amount, risk_start',
        ConditionExpression: 'attribute_exists(order_number)',
      }),
    );
    await service.tables.doc.send(
      new UpdateCommand({
        TableName: service.tables.main,
        Key: orderItemKey(live.clientId, c.service_order_id, 'seat-3'),
        UpdateExpression: 'REMOVE order_number',
        ConditionExpression: 'attribute_exists(order_number)',
      }),
    );

    const premium = await exportOf('premium');
    expect(premium.header).toEqual([...PREMIUM_COLUMNS]);
    const statements = new Map<string, { currency: string; net_premium: string; claims_approved: string; claims_paid: string }[]>();
    for (const shop of [live, second]) {
      const res = await service.call('ledger-read', {
        method: 'GET',
        path: `/api/v2/statements/${period}`,
        pathParameters: { period },
        clientId: shop.clientId,
      });
      statements.set(shop.clientId, res.json.currencies);
    }
    // Every premium entry of the live clients, once: a's two issues and its upgrade, b's issue and refund, c's three issues, d's one.
    const ledgerOf = async (clientId: string) =>
      (await service.call('ledger-read', { method: 'GET', path: '/api/v2/ledger', clientId, query: { period, limit: '100' } })).json.data as {
        type: string;
        policy_number: string;
        amount: string;
        currency: string;
      }[];
    const type = { premium_written: 'new', premium_adjusted: 'adjustment', premium_refunded: 'refund' } as Record<string, string>;
    const expected = [...(await ledgerOf(live.clientId)), ...(await ledgerOf(second.clientId))]
      .filter((entry) => entry.type.startsWith('premium_'))
      .map((entry) => [entry.policy_number, type[entry.type], entry.amount, entry.currency].join('|'))
      .sort();
    expect(expected).toHaveLength(9);
    expect(premium.rows.map((row) => [row[1], row[4], row[8], row[7]].join('|')).sort()).toEqual(expected);
    // Per client and currency, the premium column adds up to the statement's net premium.
    for (const [clientId, currencies] of statements) {
      const sums = sumBy(
        premium.rows.filter((row) => row[0] === clientId),
        7,
        8,
      );
      expect(Object.fromEntries(sums)).toEqual(Object.fromEntries(currencies.map((figures) => [figures.currency, minor(figures.net_premium)])));
    }
    // Each row's order, cover and dates; the older entry's facts read from its item and order.
    const byPolicy = new Map(premium.rows.map((row) => [`${row[1]}|${row[4]}`, row]));
    const oldRow = byPolicy.get(`${old.policy_number}|new`)!;
    const today = new Date().toISOString().slice(0, 10);
    expect(oldRow).toEqual([live.clientId, old.policy_number, c.service_order_id, c.order_number, 'new', today, today, 'JPY', old.premium, '700', '0', '1']);
    expect(byPolicy.get(`${d.policies[0]!.policy_number}|new`)).toEqual([
      second.clientId,
      d.policies[0]!.policy_number,
      d.service_order_id,
      d.order_number,
      'new',
      today,
      today,
      'KWD',
      d.policies[0]!.premium,
      '12.345',
      d.policies[0]!.commission,
      String(d.policies[0]!.terms_version),
    ]);
    // The formula-looking order number is defused and quoted, and reads back whole.
    expect(byPolicy.get(`${a.policies[1]!.policy_number}|new`)![3]).toBe(`'${a.order_number}`);
    expect(byPolicy.get(`${b.policies[0]!.policy_number}|refund`)![8]).toBe(`-${b.policies[0]!.premium}`);

    const claimsExport = await exportOf('claims');
    expect(claimsExport.header).toEqual([...CLAIMS_COLUMNS]);
    expect(claimsExport.rows.map((row) => row[0]).sort()).toEqual([...claims].sort());
    const claimRow = new Map(claimsExport.rows.map((row) => [row[0], row]));
    expect(claimRow.get(claims[0])).toEqual([
      claims[0],
      live.clientId,
      c.policies[0]!.policy_number,
      'Paid',
      'illness',
      today,
      '1234',
      '1234',
      '1234',
      today,
      'JPY',
    ]);
    expect(claimRow.get(claims[1])).toEqual([claims[1], live.clientId, c.policies[1]!.policy_number, 'Denied', 'illness', today, '5000', '', '', '', 'JPY']);
    expect(claimRow.get(claims[2])).toEqual([
      claims[2],
      live.clientId,
      a.policies[1]!.policy_number,
      'Approved',
      'illness',
      today,
      '25.00',
      '20.00',
      '',
      '',
      'USD',
    ]);
    for (const [clientId, currencies] of statements) {
      const rows = claimsExport.rows.filter((row) => row[1] === clientId);
      const approved = Object.fromEntries(sumBy(rows, 10, 7));
      const paid = Object.fromEntries(sumBy(rows, 10, 8));
      for (const figures of currencies) {
        expect(approved[figures.currency] ?? 0n).toBe(minor(figures.claims_approved));
        expect(paid[figures.currency] ?? 0n).toBe(minor(figures.claims_paid));
      }
    }

    // Nothing personal, nothing of the test client, in either file.
    for (const text of [premium.text, claimsExport.text]) {
      for (const secret of [
        PEOPLE.first_name,
        PEOPLE.last_name,
        PEOPLE.phone,
        'person@example.org',
        DESCRIPTION,
        'Doctor note',
        testKeys.client_id,
        testClaim,
        t.order_number,
      ])
        expect(text).not.toContain(secret);
    }
  });

  it('exports a month without moves as its header alone', async () => {
    const empty = await exportOf('premium', '2020-01');
    expect(empty.rows).toEqual([]);
    expect(empty.record.period_status).toBe('closed');
  });

  it('refuses a month not begun, an unknown kind, an unknown export and a caller without the operator credential', async () => {
    const future = await operator('POST', '/api/v2/admin/bordereaux', { period: '2999-01', kind: 'premium' });
    expect(future.status).toBe(422);
    expect(future.json.error).toMatchObject({ code: 'validation_failed', param: 'period' });
    const kind = await operator('POST', '/api/v2/admin/bordereaux', { period, kind: 'everything' });
    expect(kind.json.error).toMatchObject({ code: 'validation_failed', param: 'kind' });
    const month = await operator('POST', '/api/v2/admin/bordereaux', { period: '2026-13', kind: 'claims' });
    expect(month.json.error).toMatchObject({ code: 'validation_failed', param: 'period' });
    const ancient = await operator('POST', '/api/v2/admin/bordereaux', { period: '1999-12', kind: 'claims' });
    expect(ancient.json.error).toMatchObject({ code: 'validation_failed', param: 'period', message: expect.stringContaining('must be 2000-01 or later') });
    const unknown = await operator('GET', '/api/v2/admin/bordereaux/bx_000000000000000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('export_not_found');
    expect((await operator('GET', '/api/v2/admin/bordereaux/le_x')).json.error.code).toBe('export_not_found');
    const nobody = await operator('POST', '/api/v2/admin/bordereaux', { period, kind: 'premium' }, null);
    expect(nobody.status).toBe(401);
    expect(nobody.json.error.code).toBe('operator_credentials_required');
  });
});
