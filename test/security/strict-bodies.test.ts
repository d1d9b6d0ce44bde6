import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { http } from '../support/http.js';
import { useTestServer } from '../support/server.js';

/**
 * The body rules: exactly application/json (utf-8), no key twice in an object, well-formed
 * Unicode; and a transaction DynamoDB cancels for any reason is a client error, never a 500.
 */
const server = useTestServer();
afterEach(() => vi.restoreAllMocks());

let orders = 0;
/** An order as JSON text; `orderNumber` is written into the text as is (escapes included). */
const orderJson = (orderNumber = `strict-${orders++}`) =>
  `{"order_number":"${orderNumber}","currency":"USD","items":[{"name":"Seat","reference_number":"s1","cost":"10.00"}]}`;
const postRaw = (rawBody: string, contentType = 'application/json') =>
  http('POST', `${server.baseUrl}/api/v2/orders`, { rawBody, headers: { ...server.auth, 'content-type': contentType } });

describe('Content-Type', () => {
  it.each(['application/evil+json', 'application/json; charset=utf-16', 'application/json; charset=iso-8859-1', 'text/json', 'application/jsonx'])(
    'answers 415 to %s',
    async (contentType) => {
      const res = await postRaw(orderJson(), contentType);
      expect([res.status, res.json.error.code]).toEqual([415, 'unsupported_media_type']);
    },
  );

  it.each(['application/json', 'Application/JSON; charset=UTF-8', 'application/json;charset="utf-8"'])('accepts %s', async (contentType) => {
    const res = await postRaw(orderJson(), contentType);
    expect(res.status).toBe(201);
  });
});

describe('duplicate keys', () => {
  it.each([
    [
      'at the top',
      `{"order_number":"dup-1","order_number":"dup-2","currency":"USD","items":[{"name":"S","reference_number":"s1","cost":"10.00"}]}`,
      'order_number',
    ],
    [
      'in an item, the cheaper one last',
      `{"order_number":"dup-3","currency":"USD","items":[{"name":"S","reference_number":"s1","cost":"10.00","cost":"0.00"}]}`,
      'items[0].cost',
    ],
    [
      'spelt with an escape',
      `{"order_number":"dup-4","currency":"USD","items":[{"name":"S","reference_number":"s1","cost":"10.00"},{"name":"T","reference_number":"s2","cost":"1.00","c\\u006fst":"0.00"}]}`,
      'items[1].cost',
    ],
  ])('answer 400 duplicate_key %s, naming it', async (_where, raw, param) => {
    const res = await postRaw(raw);
    expect([res.status, res.json.error.code, res.json.error.param]).toEqual([400, 'duplicate_key', param]);
  });

  it('are told apart from equal values and from the same key in sibling objects', async () => {
    const raw = `{"order_number":"twins","currency":"USD","items":[{"name":"cost","reference_number":"s1","cost":"10.00"},{"name":"cost","reference_number":"s2","cost":"10.00"}],"event":{"name":"name","start_date":"2027-01-01","start_time":"10:00"}}`;
    const res = await postRaw(raw);
    expect(res.status).toBe(201);
  });
});

describe('Unicode', () => {
  it('refuses lone surrogates with 422, so two different ones can never collide into one stored order number', async () => {
    const first = await postRaw(orderJson('lone-\\ud800'));
    const second = await postRaw(orderJson('lone-\\udbff'));
    const inAKey = await postRaw(`{"order_number":"k","currency":"USD","items":[{"name":"S","reference_number":"s1","cost":"10.00"}],"\\udc00":1}`);

    expect([first.status, first.json.error.code, first.json.error.param]).toEqual([422, 'invalid_unicode', 'order_number']);
    expect([second.status, second.json.error.code]).toEqual([422, 'invalid_unicode']);
    expect([inAKey.status, inAKey.json.error.code]).toEqual([422, 'invalid_unicode']);
  });

  it('accepts well-formed astral characters (surrogate pairs)', async () => {
    const res = await postRaw(orderJson('emoji-\\ud83c\\udfab'));
    expect([res.status, res.json.order_number]).toEqual([201, 'emoji-🎫']);
  });
});

describe('a cancelled transaction', () => {
  const cancelled = (code: string) =>
    new TransactionCanceledException({
      message: `Transaction cancelled (${code})`,
      $metadata: {},
      CancellationReasons: [{ Code: 'None' }, { Code: code }],
    });

  it.each([
    ['ValidationError', 422],
    ['ThrottlingError', 429],
    ['TransactionConflict', 409],
    ['ItemCollectionSizeLimitExceeded', 409],
  ])('for %s on any action is answered %i on every write path, never 500', async (code, status) => {
    // An opt-out without Idempotency-Key is one PutItem, refused by the same cause outside a transaction.
    const single: Record<string, string> = {
      ValidationError: 'ValidationException',
      ThrottlingError: 'ThrottlingException',
      TransactionConflict: 'TransactionConflictException',
      ItemCollectionSizeLimitExceeded: 'ItemCollectionSizeLimitExceededException',
    };
    const created = await postRaw(orderJson());
    const items = [{ name: 'Seat', reference_number: 'q1', cost: '5.00' }];
    const quote = await http('POST', `${server.baseUrl}/api/v2/quotes`, {
      body: { currency: 'USD', items },
      headers: { 'x-public-key': server.demo.public_key },
    });
    const original = DynamoDBDocumentClient.prototype.send;
    vi.spyOn(DynamoDBDocumentClient.prototype, 'send').mockImplementation(function (
      this: DynamoDBDocumentClient,
      command: { constructor: { name: string } },
      ...rest: unknown[]
    ) {
      if (command.constructor.name === 'TransactWriteCommand') return Promise.reject(cancelled(code));
      if (command.constructor.name === 'PutCommand' && (command as unknown as { input: { Item: { entity?: string } } }).input.Item.entity === 'checkout') {
        return Promise.reject(Object.assign(new Error(`${single[code]} (injected)`), { name: single[code], $metadata: {} }));
      }
      return (original as (...args: unknown[]) => Promise<unknown>).call(this, command, ...rest);
    } as never);

    const answers = [
      await postRaw(orderJson()),
      await http('POST', `${server.baseUrl}/api/v2/orders`, {
        body: { token: quote.json.tokens.opt_out, order_number: 'cancelled-out', currency: 'USD', items },
        headers: server.auth,
      }),
      await http('PATCH', `${server.baseUrl}/api/v2/orders/${created.json.service_order_id}`, {
        body: { items: [{ name: 'N', old_reference_number: 's1', reference_number: 's9', cost: '12.00' }] },
        headers: server.auth,
      }),
    ];

    expect(answers.map((res) => res.status)).toEqual([status, status, status]);
    for (const res of answers) expect(res.json.error.type).not.toBe('api_error');
  });
});

describe('what a body may not be, on every route that takes one', () => {
  const routes = () => [
    { path: '/api/v2/auth/token', headers: {} },
    { path: '/api/v2/quotes', headers: { 'x-public-key': server.demo.public_key } },
    { path: '/api/v2/orders', headers: server.auth },
    { path: '/api/v2/quotes/decode', headers: server.auth },
  ];
  const send = (path: string, headers: Record<string, string>, body: BodyInit) =>
    fetch(`${server.baseUrl}${path}`, { method: 'POST', headers, body }).then(async (res) => ({
      status: res.status,
      json: (await res.json()) as { error: { code: string; type: string } },
    }));

  it('nested deeper than 32 levels: 400 nesting_too_deep, never a 500, however deep', async () => {
    for (const depth of [33, 8_000, 60_000]) {
      for (const { path, headers } of routes()) {
        const res = await send(path, { ...headers, 'content-type': 'application/json' }, `${'['.repeat(depth)}${']'.repeat(depth)}`);
        expect([path, depth, res.status, res.json.error.code]).toEqual([path, depth, 400, 'nesting_too_deep']);
      }
    }
  });

  it('without a Content-Type: 415', async () => {
    for (const { path, headers } of routes()) {
      const res = await send(path, headers, new TextEncoder().encode('{"currency":"USD","items":[{"reference_number":"nc","cost":"1"}]}'));
      expect([path, res.status, res.json.error.code]).toEqual([path, 415, 'unsupported_media_type']);
    }
  });

  it('bytes that are not UTF-8 (invalid, overlong, Latin-1, an encoded surrogate): 400 invalid_encoding, never silently replaced', async () => {
    for (const bad of [[0xff], [0xc0, 0xaf], [0xe9], [0xed, 0xa0, 0x80]]) {
      const body = Buffer.concat([Buffer.from('{"currency":"USD","items":[{"reference_number":"a'), Buffer.from(bad), Buffer.from('","cost":"1"}]}')]);
      const res = await send('/api/v2/quotes', { 'x-public-key': server.demo.public_key, 'content-type': 'application/json' }, body);
      expect([bad, res.status, res.json.error.code]).toEqual([bad, 400, 'invalid_encoding']);
    }
  });
});
