import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { claimInMinorUnits, type Claim } from '#shared/claims/index.js';
import { itemInMinorUnits, type OrderItem } from '#shared/orders/index.js';
import { formatMoney } from '#shared/platform/money/index.js';
import { figuresOf, FIGURES, type LedgerEntry } from '#shared/ledger/index.js';
import { orderOfPartition } from '#shared/platform/dynamo/keys.js';

/**
 * `npm run reconcile`: proves the ledger against what it records, for every client and currency.
 *   premium: Σ premium_* entries = Σ premium of the client's policies in Issued, Canceled or Claimed
 *   commission: Σ commission of premium_* entries = Σ commission of those same policies (a void
 *     returns it, a change moves it by its delta; policies and entries from before terms had
 *     versions carry none: 0)
 *   claims approved: Σ claim_approved entries = Σ approved amount of its Approved and Paid claims
 *   claims paid: Σ claim_paid entries = Σ approved amount of its Paid claims
 *   remitted: Σ remittance entries = Σ amount of the remittances finance recorded and kept (a reversed one counts 0)
 *   statements: each month's statement figures = the sums of that month's entries
 * One Scan of the main table (an operator's check, run off-peak). Policies and claims written
 * before the ledger existed have no entries: an item without `currency` predates it and is left out.
 * Sums are BigInt, as the statements' are: one amount is a safe integer, a client's history in a
 * currency of many minor units (IRR, VND) passes 2^53 long before a month does.
 */
export interface Difference {
  client_id: string;
  currency: string;
  what: 'premium' | 'commission' | 'claims approved' | 'claims paid' | 'remitted' | `statement ${string}`;
  ledger: bigint;
  records: bigint;
}

const PREMIUM_STATUSES = new Set(['Issued', 'Canceled', 'Claimed']);

export async function reconcile(doc: DynamoDBDocumentClient, tableName: string): Promise<Difference[]> {
  const sums = new Map<string, { ledger: bigint; records: bigint }>();
  const add = (clientId: string, currency: string, what: Difference['what'], side: 'ledger' | 'records', amount: number | bigint) => {
    const key = `${clientId}|${currency}|${what}`;
    const sum = sums.get(key) ?? { ledger: 0n, records: 0n };
    sum[side] += BigInt(amount);
    sums.set(key, sum);
  };
  let start: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'entity IN (:item, :claim, :entry, :statement, :remittance)',
        ExpressionAttributeValues: { ':item': 'item', ':claim': 'claim', ':entry': 'ledger_entry', ':statement': 'statement', ':remittance': 'remittance' },
        ExclusiveStartKey: start,
      }),
    );
    for (const record of page.Items ?? []) {
      if (record.entity === 'item') {
        const order = orderOfPartition(record.PK);
        if (!order || typeof record.currency !== 'string') continue;
        const item = itemInMinorUnits(record as unknown as OrderItem, record.currency);
        if (PREMIUM_STATUSES.has(item.policy.status)) {
          add(order.client_id, record.currency, 'premium', 'records', item.policy.premium);
          add(order.client_id, record.currency, 'commission', 'records', item.policy.commission ?? 0);
        }
      } else if (record.entity === 'claim') {
        const claim = claimInMinorUnits(record as unknown as Claim);
        if (claim.status === 'Approved' || claim.status === 'Paid')
          add(claim.client_id, claim.currency, 'claims approved', 'records', claim.amount_approved ?? 0);
        if (claim.status === 'Paid') add(claim.client_id, claim.currency, 'claims paid', 'records', claim.amount_approved ?? 0);
      } else if (record.entity === 'remittance') {
        add(String(record.client_id), String(record.currency), 'remitted', 'records', record.reversal ? 0 : wholeNumber(record.amount));
      } else if (record.entity === 'statement') {
        const clientId = /^CLIENT#([^#]+)#STATEMENT#/.exec(String(record.PK))?.[1];
        if (!clientId) continue;
        for (const name of FIGURES)
          add(clientId, String(record.currency), `statement ${String(record.period)} ${name}`, 'records', wholeNumber(record[name] ?? 0));
      } else {
        const entry = record as unknown as LedgerEntry;
        const figures = figuresOf(entry);
        for (const name of FIGURES) add(entry.client_id, entry.currency, `statement ${entry.period} ${name}`, 'ledger', figures[name]);
        const what =
          entry.type === 'claim_approved'
            ? 'claims approved'
            : entry.type === 'claim_paid'
              ? 'claims paid'
              : entry.type === 'remittance_received' || entry.type === 'remittance_reversed'
                ? 'remitted'
                : 'premium';
        add(entry.client_id, entry.currency, what, 'ledger', entry.amount);
        if (what === 'premium') add(entry.client_id, entry.currency, 'commission', 'ledger', entry.commission ?? 0);
      }
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return [...sums.entries()]
    .filter(([, sum]) => sum.ledger !== sum.records)
    .map(([key, sum]) => {
      const [client_id, currency, what] = key.split('|') as [string, string, Difference['what']];
      return { client_id, currency, what, ...sum };
    })
    .sort((a, b) => `${a.client_id} ${a.currency} ${a.what}`.localeCompare(`${b.client_id} ${b.currency} ${b.what}`));
}

/** A stored whole number (a number, or the text of one past 2^53) as BigInt. */
const wholeNumber = (value: unknown): bigint => BigInt(String(value));

const counts = (what: string) => what.endsWith('policies_issued') || what.endsWith('policies_voided');
export const describeDifference = (d: Difference): string =>
  counts(d.what)
    ? `${d.client_id} ${d.currency} ${d.what}: entries ${d.ledger}, statement ${d.records}, difference ${d.ledger - d.records}`
    : `${d.client_id} ${d.currency} ${d.what}: ledger ${formatMoney(d.ledger, d.currency)}, ${d.what.startsWith('statement') ? 'statement' : 'records'} ${formatMoney(d.records, d.currency)}, difference ${formatMoney(d.ledger - d.records, d.currency)}`;
