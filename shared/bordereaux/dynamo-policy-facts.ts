import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { orderKey, policyLookupKey, type Key } from '../platform/dynamo/keys.js';
import { POLICY_INDEX } from '../platform/dynamo/table-definitions.js';
import { itemInMinorUnits, type OrderItem } from '../orders/index.js';
import type { LedgerEntry } from '../ledger/index.js';
import type { PolicyFacts } from './bordereau.js';

/** Policies remembered (a policy's issue and its refund are two entries); a bounded map, oldest dropped first. */
const REMEMBERED = 10_000;

/**
 * The facts a premium row needs, for an entry that does not carry them (written before entries
 * kept them, or of an item stored before items carried their order number): the policy's item
 * through the policy-number index, and its order's number from the order header when the item
 * lacks it. Entries written since carry them, and an export of those never comes here.
 */
export class DynamoPolicyFacts {
  private readonly remembered = new Map<string, PolicyFacts>();

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async factsOf(clientId: string, entry: LedgerEntry): Promise<PolicyFacts> {
    const policyNumber = entry.policy_number ?? '';
    const known = this.remembered.get(`${clientId}|${policyNumber}`);
    if (known) return known;
    const { Items = [] } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: POLICY_INDEX,
        KeyConditionExpression: 'policy_key = :key',
        ExpressionAttributeValues: { ':key': policyLookupKey(clientId, policyNumber) },
      }),
    );
    const [where] = Items as Key[];
    if (!where) throw new Error(`no item holds the policy of ledger entry ${entry.id}`);
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { PK: where.PK, SK: where.SK } }));
    if (!Item) throw new Error(`no item holds the policy of ledger entry ${entry.id}`);
    const { policy } = itemInMinorUnits(Item as unknown as OrderItem, entry.currency);
    const orderNumber = typeof Item.order_number === 'string' ? Item.order_number : await this.orderNumber(clientId, entry.service_order_id);
    const facts = { order_number: orderNumber, coverage_amount: policy.coverage_amount, risk_start: policy.created };
    if (this.remembered.size >= REMEMBERED) this.remembered.delete(this.remembered.keys().next().value!);
    this.remembered.set(`${clientId}|${policyNumber}`, facts);
    return facts;
  }

  private async orderNumber(clientId: string, orderId: string): Promise<string> {
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: orderKey(clientId, orderId), ProjectionExpression: 'order_number' }));
    return typeof Item?.order_number === 'string' ? Item.order_number : '';
  }
}
