import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { createClient, type NewClientKeys } from '#shared/clients/manage-clients.js';
import type { RoutedFunctionName } from '#shared/platform/functions.js';
import { forgetKeySets, generateKeySet } from '#shared/platform/keys/signing-keys.js';
import { DynamoClientStore } from '#shared/clients/dynamo-client-store.js';
import { assertContract } from './contract.js';
import { apiEvent, type ApiEventInput } from './events.js';
import { freshTables } from './dynamo.js';
import { localClient } from '../../scripts/local/local-stack.js';
import { startStreamConsumers, type StreamPump } from '../../scripts/local/local-streams.js';
import { asFunction, holdKeysToGrants, holdToGrants, refusals } from '../../scripts/local/local-grants.js';
import { sharedDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';

/**
 * The real handlers over fresh DynamoDB Local tables, called in-process with v2 events —
 * what `npm start` and API Gateway do, minus HTTP. One per test file.
 */
export interface HandlerResult {
  status: number;
  headers: Record<string, string>;
  body: string;
  json: any;
}
/** The functions behind routes, from the function catalogue. */
export type FunctionName = RoutedFunctionName;

/**
 * A context of its own per call, as Lambda gives each invocation (the middleware keeps request state
 * on it). Its time left is a test's, not a function's: a test here sends up to hundreds of calls at
 * once into one process, where each deployed call has a Lambda of its own, so a call's time says
 * nothing about the function's timeout. (With 10 s, Middy's early answer before the timeout turned
 * checkouts that a busy run kept waiting into 500s after their writes had committed.)
 */
const TEST_CALL_MS = 120_000;
const lambdaContext = () => ({ awsRequestId: 'test', functionName: 'test', getRemainingTimeInMillis: () => TEST_CALL_MS }) as unknown as Context;

export async function startService() {
  const tables = await freshTables();
  process.env.TABLE_NAME = tables.main;
  process.env.METRICS_TABLE_NAME = tables.metrics;
  process.env.SIGNING_KEYS ??= JSON.stringify({
    access: generateKeySet('access'),
    quote: generateKeySet('quote'),
    claim: generateKeySet('claim'),
    'order-number': generateKeySet('order-number'),
  });
  forgetKeySets();
  // Each function's calls are held to its grants, as its role holds them deployed (scripts/local/local-grants.ts).
  holdToGrants(sharedDocumentClient());
  holdKeysToGrants();
  const clients = new DynamoClientStore(tables.doc, tables.main);

  const handlers = new Map<FunctionName, (event: unknown, context: Context) => Promise<APIGatewayProxyStructuredResultV2>>();
  async function call(name: FunctionName, input: ApiEventInput): Promise<HandlerResult> {
    if (!handlers.has(name)) handlers.set(name, (await import(`../../functions/${name}/handler.ts`)).handler);
    const result = await asFunction(name, () => handlers.get(name)!(apiEvent(input), lambdaContext()));
    const body = result.body ?? '';
    assertContract(input.method, input.path, result.statusCode ?? 200, body); // every answer is one openapi.yaml documents
    return { status: result.statusCode ?? 200, headers: (result.headers ?? {}) as Record<string, string>, body, json: body ? JSON.parse(body) : undefined };
  }

  /** Every record of both tables (small test tables: one Scan page each is plenty). */
  async function scanBoth(): Promise<Record<string, unknown>[]> {
    const pages = await Promise.all([tables.main, tables.metrics].map((TableName) => tables.doc.send(new ScanCommand({ TableName }))));
    return pages.flatMap((page) => page.Items ?? []);
  }
  const rowCount = async (): Promise<number> => {
    const pages = await Promise.all([tables.main, tables.metrics].map((TableName) => tables.doc.send(new ScanCommand({ TableName, Select: 'COUNT' }))));
    return pages.reduce((sum, page) => sum + (page.Count ?? 0), 0);
  };

  /**
   * Runs the stream consumers (the day counts) over everything written so far, as Lambda's event
   * source mappings do deployed and npm start's pumps do locally, and waits until they are done.
   */
  let pumps: Promise<StreamPump> | undefined;
  /** What wraps the consumers' handlers (set before the first drain: the fault suite's redeliveries). */
  let streamWrap: Parameters<typeof startStreamConsumers>[2]['wrap'];
  const streamClient = localClient(tables.endpoint);
  async function drainStreams(): Promise<void> {
    pumps ??= startStreamConsumers({ client: streamClient, endpoint: tables.endpoint }, tables, {
      autoPoll: false,
      ...(streamWrap ? { wrap: streamWrap } : {}),
    });
    await (await pumps).drain();
  }

  /** One run of a scheduled function (the webhook retry sweep), as EventBridge or npm start's interval runs it. */
  async function runScheduled(name: 'webhooks-retry'): Promise<unknown> {
    const { handler } = (await import(`../../functions/${name}/handler.ts`)) as { handler: () => Promise<unknown> };
    return asFunction(name, handler);
  }

  return {
    tables,
    call,
    drainStreams,
    /** Wraps every stream consumer's handler from the first drain on (the fault suite's batch faults). */
    wrapStreamHandlers: (wrap: NonNullable<typeof streamWrap>) => {
      if (pumps) throw new Error('wrapStreamHandlers must come before the first drainStreams');
      streamWrap = wrap;
    },
    runScheduled,
    scanBoth,
    rowCount,
    newClient: (name = 'Test Shop', ratePpm?: number, mode?: 'test' | 'live'): Promise<NewClientKeys> =>
      createClient(clients, { name, ratePpm, ...(mode ? { mode } : {}) }),
    stop: async () => {
      if (pumps) await (await pumps).stop();
      streamClient.destroy();
      await tables.cleanup();
      // A call a deployed function's role would refuse fails the file, even where the code caught it.
      if (refusals.length > 0) throw new Error(`calls the deployed roles would refuse: ${JSON.stringify(refusals)}`);
    },
  };
}
export type Service = Awaited<ReturnType<typeof startService>>;

let counter = 0;
export const uniqueOrderNumber = (prefix = 'ord'): string => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

export const concert = { name: 'Spring Concert', start_date: '2027-04-10', start_time: '19:30', location: 'City Hall' };
export const cartItems = (...costs: string[]) => costs.map((cost, i) => ({ name: `Seat ${i + 1}`, reference_number: `seat-${i + 1}`, cost, event: concert }));

/** A quote for `items` from the client with `publicKey`; returns both tokens and the quote body. */
export async function quoteFor(service: Service, publicKey: string, items: { reference_number: string; cost: string; name?: string }[], currency = 'USD') {
  const res = await service.call('quotes-create', {
    method: 'POST',
    path: '/api/v2/quotes',
    headers: { 'x-public-key': publicKey },
    body: { currency, items },
  });
  if (res.status !== 201) throw new Error(`quote failed: ${res.status} ${res.body}`);
  return res.json as {
    quote_id: string;
    currency: string;
    premium_total: string;
    expires_at: string;
    items: { reference_number: string; cost: string; premium: string }[];
    tokens: { opt_in: string; opt_out: string };
  };
}
