import { DeleteCommand, GetCommand, PutCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_LOOK_PERIOD_DAYS, voidWindowEnd } from '#shared/clients/client.js';
import type { TableNames } from '#shared/platform/dynamo/table-admin.js';
import { unlessConditionFails } from '#shared/platform/dynamo/transactions.js';
import {
  checkoutKey,
  clientKey,
  clientMonthKey,
  clientRegisterKey,
  orderKey,
  orderListKey,
  orderListShard,
  policyListKey,
  policyListShard,
  storedRecord,
} from '#shared/platform/dynamo/keys.js';
import { headerInMinorUnits, itemInMinorUnits, type Order, type OrderItem } from '#shared/orders/index.js';
import { claimInMinorUnits, type Claim } from '#shared/claims/index.js';
import { minorUnit } from '#shared/platform/money/index.js';
import { bookedIn, claimActivitiesOf, openingEntriesOf, statementStatus, type LedgerEntry } from '#shared/ledger/index.js';
import { DynamoLedgerStore } from '#shared/ledger/dynamo-ledger-store.js';
import { exportListFields } from '#shared/bordereaux/dynamo-export-store.js';
import { orderOfPartition } from '#shared/platform/dynamo/keys.js';
import { firstVersionOf, FIRST_TERMS_VERSION, liveTermsOf } from '#shared/terms/index.js';
import { DynamoTermsStore } from '#shared/terms/dynamo-terms-store.js';

/**
 * Issue 20 moved keys: the list indexes' partition keys gained a shard (`#<nn>`), and checkout
 * records moved from `CLIENT#<client>` / `ORDER#<hash>` to a partition each. A table written
 * before that needs this once, after the new code is deployed (and once more to catch what the
 * old code wrote meanwhile): every record keeps its data and gets its new key. Moved checkout
 * records keep no `counted_by`, so the day counts, which already counted them, do not count them
 * again. Idempotent: a second run finds nothing to do.
 */
export async function migrateToShardedKeys(doc: DynamoDBDocumentClient, tables: TableNames): Promise<{ listRecords: number; checkoutRecords: number }> {
  let listRecords = 0;
  let checkoutRecords = 0;
  for await (const record of scan(doc, tables.main, 'attribute_exists(list_key) OR attribute_exists(plist_key)')) {
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    const orderMatch = /^CLIENT#([^#]+)#ORDERS$/.exec(text(record.list_key));
    const policyMatch = /^CLIENT#([^#]+)#POLICIES$/.exec(text(record.plist_key));
    if (!orderMatch && !policyMatch) continue;
    const orderId = /#ORDER#([^#]+)$/.exec(String(record.PK))?.[1];
    const policyNumber = (record.policy as { policy_number?: string } | undefined)?.policy_number;
    const sets: string[] = [];
    const values: Record<string, string> = {};
    if (orderMatch && orderId) {
      sets.push('list_key = :list');
      values[':list'] = orderListKey(orderMatch[1]!, orderListShard(orderId));
    }
    if (policyMatch && policyNumber) {
      sets.push('plist_key = :plist');
      values[':plist'] = policyListKey(policyMatch[1]!, policyListShard(policyNumber));
    }
    if (sets.length === 0) continue;
    await doc.send(
      new UpdateCommand({
        TableName: tables.main,
        Key: { PK: record.PK, SK: record.SK },
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: values,
      }),
    );
    listRecords++;
  }
  for await (const record of scan(doc, tables.metrics, 'entity = :checkout AND begins_with(SK, :order)', { ':checkout': 'checkout', ':order': 'ORDER#' })) {
    const { PK: _pk, SK: _sk, ...fields } = record;
    const key = checkoutKey(String(record.client_id), String(record.order_hash));
    // Refused: moved by an earlier run that stopped before the delete.
    await unlessConditionFails(
      doc.send(new PutCommand({ TableName: tables.metrics, Item: { ...fields, ...key }, ConditionExpression: 'attribute_not_exists(PK)' })),
    );
    await doc.send(new DeleteCommand({ TableName: tables.metrics, Key: { PK: record.PK, SK: record.SK } }));
    checkoutRecords++;
  }
  return { listRecords, checkoutRecords };
}

/**
 * Issue 25 fixed each policy's void window at sale (`policy.void_until`). A policy stored before
 * has none, and the code then counts its window from its own creation with the client's look
 * period of the day. This gives each such policy the window it should have had: its order's sale
 * plus the client's look period now (a policy a change made inherits its order's sale, as the
 * change would now give it). Conditional on the policy still having none: safe to run twice and
 * beside new writes (which always carry one).
 */
export async function backfillVoidWindows(doc: DynamoDBDocumentClient, tables: Pick<TableNames, 'main'>): Promise<{ policies: number }> {
  const orderCreated = new Map<string, Promise<string | undefined>>();
  const lookPeriods = new Map<string, Promise<number>>();
  let policies = 0;
  for await (const record of scan(
    doc,
    tables.main,
    'entity = :item AND attribute_not_exists(#policy.void_until)',
    { ':item': 'item' },
    { '#policy': 'policy' },
  )) {
    const where = /^CLIENT#([^#]+)#ORDER#([^#]+)$/.exec(record.PK);
    if (!where) continue;
    const [, clientId, orderId] = where as unknown as [string, string, string];
    if (!orderCreated.has(record.PK))
      orderCreated.set(
        record.PK,
        read(doc, tables.main, orderKey(clientId, orderId), 'created').then((v) => (typeof v === 'string' ? v : undefined)),
      );
    if (!lookPeriods.has(clientId))
      lookPeriods.set(
        clientId,
        read(doc, tables.main, clientKey(clientId), 'look_period_days').then((v) => (typeof v === 'number' ? v : DEFAULT_LOOK_PERIOD_DAYS)),
      );
    const sold = await orderCreated.get(record.PK)!;
    if (!sold) continue;
    const written = await unlessConditionFails(
      doc.send(
        new UpdateCommand({
          TableName: tables.main,
          Key: { PK: record.PK, SK: record.SK },
          UpdateExpression: 'SET #policy.void_until = :until',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#policy.void_until)',
          ExpressionAttributeNames: { '#policy': 'policy' },
          ExpressionAttributeValues: { ':until': voidWindowEnd(new Date(sold), await lookPeriods.get(clientId)!) },
        }),
      ),
    );
    if (written) policies++;
  }
  return { policies };
}

/** What amountsToMinorUnits did: records rewritten per kind, amounts that were rounded, records another writer rewrote first. */
export interface MinorUnitsReport {
  orders: number;
  items: number;
  claims: number;
  rounded: number;
  writtenMeanwhile: number;
}

/**
 * Issue 27 counts every amount in its currency's minor unit: a record written before counted
 * hundredths whatever the currency. This rewrites each order header, item and claim without the
 * `minor_units` mark into minor units (exactly what reads convert it to meanwhile: orders'
 * stored-amounts.ts, claims' claimInMinorUnits), gives items their order's currency, and marks them.
 * Two-digit currencies keep their numbers and only gain the mark, and so do codes ISO gives no minor
 * unit that the API took before (HRK, SLL, ZWL, XDR…: their amounts keep two digits). Each write is conditional on the
 * mark still being absent: every writer of amounts writes the mark with them, so a record a
 * request rewrote meanwhile is left as that request wrote it. Safe to run twice and under traffic.
 * `afterRead` lets a test act between a record's read and its write.
 */
export async function amountsToMinorUnits(
  doc: DynamoDBDocumentClient,
  tables: Pick<TableNames, 'main'>,
  afterRead?: (record: Record<string, unknown>) => Promise<void>,
): Promise<MinorUnitsReport> {
  const report: MinorUnitsReport = { orders: 0, items: 0, claims: 0, rounded: 0, writtenMeanwhile: 0 };
  const currencies = new Map<string, Promise<string | undefined>>();
  const roundedOf = (currency: string, ...hundredths: (number | undefined)[]) => {
    const step = 10 ** Math.max(0, 2 - (minorUnit(currency) ?? 2));
    return hundredths.filter((amount) => amount !== undefined && amount % step !== 0).length;
  };
  const write = async (record: Record<string, unknown>, sets: Record<string, unknown>, kind: 'orders' | 'items' | 'claims', rounded: number) => {
    await afterRead?.(record);
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':mark': true };
    const expression = Object.entries(sets).map(([path, value], index) => {
      const placeholders = path.split('.').map((part) => {
        names[`#${part}`] = part;
        return `#${part}`;
      });
      values[`:v${index}`] = value;
      return `${placeholders.join('.')} = :v${index}`;
    });
    const written = await unlessConditionFails(
      doc.send(
        new UpdateCommand({
          TableName: tables.main,
          Key: { PK: record.PK, SK: record.SK },
          UpdateExpression: `SET ${[...expression, 'minor_units = :mark'].join(', ')}`,
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(minor_units)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      ),
    );
    if (written) {
      report[kind]++;
      report.rounded += rounded;
    } else report.writtenMeanwhile++;
  };
  for await (const record of scan(doc, tables.main, 'entity IN (:order, :item, :claim) AND attribute_not_exists(minor_units)', {
    ':order': 'order',
    ':item': 'item',
    ':claim': 'claim',
  })) {
    if (record.entity === 'order') {
      const header = record as unknown as Order;
      await write(record, { subtotal: headerInMinorUnits(header).subtotal }, 'orders', roundedOf(header.currency, header.subtotal));
    } else if (record.entity === 'item') {
      const where = /^CLIENT#([^#]+)#ORDER#([^#]+)$/.exec(record.PK);
      if (!where) continue;
      if (!currencies.has(record.PK)) {
        currencies.set(
          record.PK,
          read(doc, tables.main, orderKey(where[1]!, where[2]!), 'currency').then((v) => (typeof v === 'string' ? v : undefined)),
        );
      }
      const currency = await currencies.get(record.PK)!;
      if (currency === undefined) continue; // an item without its order: nothing can read it
      const stored = record as unknown as OrderItem;
      const { cost, policy } = itemInMinorUnits(stored, currency);
      await write(
        record,
        {
          cost,
          currency,
          'policy.premium': policy.premium,
          'policy.coverage_amount': policy.coverage_amount,
          ...(policy.premium_delta === undefined ? {} : { 'policy.premium_delta': policy.premium_delta }),
          ...(policy.refund_due === undefined ? {} : { 'policy.refund_due': policy.refund_due }),
        },
        'items',
        roundedOf(currency, stored.cost, stored.policy.premium, stored.policy.coverage_amount, stored.policy.refund_due),
      );
    } else {
      const stored = record as unknown as Claim;
      const claim = claimInMinorUnits(stored);
      await write(
        record,
        {
          amount_claimed: claim.amount_claimed,
          policies: claim.policies,
          ...(claim.amount_approved === undefined ? {} : { amount_approved: claim.amount_approved }),
        },
        'claims',
        roundedOf(stored.currency, ...stored.policies.map((policy) => policy.coverage_amount), stored.amount_approved),
      );
    }
  }
  return report;
}

/**
 * Issue 35 made an entry's id alone decide whether it exists (an id record beside each entry, see
 * DynamoLedgerStore.record): this gives every entry written before its id record, so that an
 * opening balance finds it whatever time it derives for it. Run before openLedger; safe to run
 * twice and beside traffic (each write is conditional on the id record being absent). `duplicates`
 * counts ids already written under two keys (an aged test order the opening balance met before
 * this fix); reconcile names their clients.
 */
export async function adoptLedgerEntries(doc: DynamoDBDocumentClient, tables: Pick<TableNames, 'main'>): Promise<{ entries: number; duplicates: number }> {
  const ledger = new DynamoLedgerStore(doc, tables.main);
  const report = { entries: 0, duplicates: 0 };
  for await (const record of scan(doc, tables.main, 'entity = :entry', { ':entry': 'ledger_entry' })) {
    const outcome = await ledger.adopt(record as unknown as LedgerEntry & { opening?: boolean });
    if (outcome === 'written') report.entries++;
    else if (outcome === 'duplicate') report.duplicates++;
  }
  return report;
}

/**
 * Issue 28's opening balance: the ledger entries of everything written before the ledger existed.
 * For each policy and claim, the entries its past moves would have made on the stream (the same
 * ids), each written with its statement's figures in one transaction unless an entry of its id
 * exists anywhere (its id record), marked `opening` so the stream consumer, meeting the same change
 * again, does not count it twice. A move in a month still open keeps its time; one whose month has
 * closed is booked at `now` in the open month (bookedIn): a closed month never changes, and the
 * times read off a record (which a test helper may have moved) never decide an entry's identity.
 * The marks the bordereaux read are written for open months only, for the same reason. Safe to run
 * twice and beside traffic: an entry is written once, by whichever comes first. Run it after
 * amountsToMinorUnits (items then carry their currency) and adoptLedgerEntries.
 */
export async function openLedger(doc: DynamoDBDocumentClient, tables: Pick<TableNames, 'main'>, now = new Date()): Promise<{ entries: number }> {
  const ledger = new DynamoLedgerStore(doc, tables.main);
  const open = (move: { period: string }) => statementStatus(move.period, now) !== 'closed';
  let entries = 0;
  for await (const record of scan(doc, tables.main, 'entity IN (:item, :claim)', { ':item': 'item', ':claim': 'claim' })) {
    const opening = openingEntriesOf(record, orderOfPartition(record.PK)).map((entry) => bookedIn(entry, now));
    // The marks the bordereaux find a month's clients and claims by (written again harmlessly).
    const activity = record.entity === 'claim' ? claimActivitiesOf(record as unknown as Claim).filter(open) : [];
    await ledger.notePeriods([...opening, ...activity]);
    await ledger.noteClaimActivity(activity);
    for (const entry of opening) if (await ledger.open(entry)) entries++;
  }
  return { entries };
}

/**
 * Issue 37's register of clients (CLIENTS / CLIENT#<id>), which the console lists merchants from:
 * every client created before it gets its place. Safe to run twice and beside traffic (a client
 * created meanwhile is registered by its own creation; each write here is conditional).
 */
export async function registerClients(doc: DynamoDBDocumentClient, tables: Pick<TableNames, 'main'>): Promise<{ clients: number }> {
  let clients = 0;
  for await (const record of scan(doc, tables.main, 'entity = :client', { ':client': 'client' })) {
    const clientId = String(record.client_id);
    const written = await unlessConditionFails(
      doc.send(
        new PutCommand({
          TableName: tables.main,
          Item: storedRecord(clientRegisterKey(clientId), 'client_register', { client_id: clientId }),
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      ),
    );
    if (written) clients++;
  }
  return { clients };
}

/**
 * Issue 37's list of past bordereau exports (the index BORDEREAU_LIST_INDEX, newest first): every
 * export written before it gets its place (`blist_key`, `blist_sort`, from its own creation time and
 * id). Safe to run twice and beside traffic: each write is conditional on the place being absent,
 * and an export started meanwhile is written with its place.
 */
export async function listBordereauExports(doc: DynamoDBDocumentClient, tables: Pick<TableNames, 'main'>): Promise<{ exports: number }> {
  let exports = 0;
  for await (const record of scan(doc, tables.main, 'entity = :bordereau AND attribute_not_exists(blist_key)', { ':bordereau': 'bordereau' })) {
    const fields = exportListFields({ created: String(record.created), export_id: String(record.export_id) });
    const written = await unlessConditionFails(
      doc.send(
        new UpdateCommand({
          TableName: tables.main,
          Key: { PK: record.PK, SK: record.SK },
          UpdateExpression: 'SET blist_key = :key, blist_sort = :sort',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(blist_key)',
          ExpressionAttributeValues: { ':key': fields.blist_key, ':sort': fields.blist_sort },
        }),
      ),
    );
    if (written) exports++;
  }
  return { exports };
}

/**
 * Issue 38's versioned terms: every client created before them gets version 1 from its rate and
 * look period, in force since its creation, with no minimum and no commission (what it was sold
 * under). Written as a publish is, through the terms store: the version, the client's head and
 * its public key's, only while the client has no head, so a second run, or a client created
 * meanwhile with its own version 1, changes nothing.
 */
export async function firstTermsVersions(doc: DynamoDBDocumentClient, tables: Pick<TableNames, 'main'>, now = new Date()): Promise<{ clients: number }> {
  const store = new DynamoTermsStore(doc, tables.main);
  let clients = 0;
  for await (const record of scan(doc, tables.main, 'entity = :client AND attribute_not_exists(terms_latest)', { ':client': 'client' })) {
    const client = {
      client_id: String(record.client_id),
      rate_ppm: Number(record.rate_ppm),
      look_period_days: typeof record.look_period_days === 'number' ? record.look_period_days : DEFAULT_LOOK_PERIOD_DAYS,
      created: String(record.created),
    };
    const first = firstVersionOf(client, { sub: 'migration', email: null }, now);
    const head = { client_id: client.client_id, public_key: String(record.public_key), latest: 0, live: [] };
    if ((await store.publish(first, head, [liveTermsOf(first)])) === 'published') clients++;
  }
  return { clients };
}

/**
 * Issue 38: every policy sold before terms had versions was sold under what is now its client's
 * version 1, with no commission: it gets `terms_version: 1` and `commission: 0`. Only a policy
 * without a version is written (a condition on each), so a second run, or a policy sold meanwhile,
 * changes nothing; the write moves no status, so it makes no ledger entry and no webhook.
 */
export async function policiesTermsVersion(doc: DynamoDBDocumentClient, tables: Pick<TableNames, 'main'>): Promise<{ policies: number }> {
  let policies = 0;
  for await (const record of scan(doc, tables.main, 'entity = :item AND attribute_not_exists(#p.terms_version)', { ':item': 'item' }, { '#p': 'policy' })) {
    const written = await unlessConditionFails(
      doc.send(
        new UpdateCommand({
          TableName: tables.main,
          Key: { PK: record.PK, SK: record.SK },
          UpdateExpression: 'SET #p.terms_version = :first, #p.commission = :none',
          ConditionExpression: 'attribute_exists(#p) AND attribute_not_exists(#p.terms_version)',
          ExpressionAttributeNames: { '#p': 'policy' },
          ExpressionAttributeValues: { ':first': FIRST_TERMS_VERSION, ':none': 0 },
        }),
      ),
    );
    if (written) policies++;
  }
  return { policies };
}

/**
 * Issue 38: a client's balance walks the months it had a move in (CLIENT#<id>#MONTHS), which the
 * ledger consumer marks from now on beside the bordereaux' marks of a month's clients
 * (LEDGER#<YYYY-MM>). Every month already marked there gets its mark in the client's months too.
 * Each write puts the same record: a second run, or the consumer meanwhile, changes nothing.
 */
export async function clientMonths(doc: DynamoDBDocumentClient, tables: Pick<TableNames, 'main'>): Promise<{ months: number }> {
  let months = 0;
  for await (const record of scan(doc, tables.main, 'entity = :mark', { ':mark': 'ledger_client' })) {
    const [clientId, period] = [String(record.client_id), String(record.period)];
    const written = await unlessConditionFails(
      doc.send(
        new PutCommand({
          TableName: tables.main,
          Item: storedRecord(clientMonthKey(clientId, period), 'client_month', { period }),
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      ),
    );
    if (written) months++;
  }
  return { months };
}

/** Everything `npm run migrate` does, in order (each step safe to run twice and beside traffic). */
export async function runMigrations(doc: DynamoDBDocumentClient, tables: TableNames, now = new Date()) {
  const moved = await migrateToShardedKeys(doc, tables);
  const windows = await backfillVoidWindows(doc, tables);
  const minor = await amountsToMinorUnits(doc, tables);
  const adopted = await adoptLedgerEntries(doc, tables);
  const opening = await openLedger(doc, tables, now);
  const registered = await registerClients(doc, tables);
  const listed = await listBordereauExports(doc, tables);
  const terms = await firstTermsVersions(doc, tables, now);
  const sold = await policiesTermsVersion(doc, tables);
  const months = await clientMonths(doc, tables);
  return { moved, windows, minor, adopted, opening, registered, listed, terms, sold, months };
}

async function read(doc: DynamoDBDocumentClient, tableName: string, key: { PK: string; SK: string }, attribute: string): Promise<unknown> {
  const { Item } = await doc.send(
    new GetCommand({ TableName: tableName, Key: key, ProjectionExpression: '#a', ExpressionAttributeNames: { '#a': attribute } }),
  );
  return Item?.[attribute];
}

async function* scan(
  doc: DynamoDBDocumentClient,
  tableName: string,
  filter: string,
  values?: Record<string, string>,
  names?: Record<string, string>,
): AsyncGenerator<{ PK: string; SK: string } & Record<string, unknown>> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: filter,
        ExclusiveStartKey: start,
        ...(values ? { ExpressionAttributeValues: values } : {}),
        ...(names ? { ExpressionAttributeNames: names } : {}),
      }),
    );
    yield* (page.Items ?? []) as ({ PK: string; SK: string } & Record<string, unknown>)[];
    start = page.LastEvaluatedKey;
  } while (start);
}
