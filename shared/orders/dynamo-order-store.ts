import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CheckoutRecord } from '../conversion/index.js';
import type { Order, OrderItem, Policy } from './order.js';
import type {
  CancellationConfirmation,
  FoundPolicy,
  ItemsWanted,
  OrderExcerpt,
  OrderExcerpts,
  OrderLister,
  OrderPage,
  OrderStore,
  PlannedChange,
  PolicyLister,
  PolicyPage,
  PolicyStore,
  QuoteRedemption,
} from './ports.js';
import type { IdempotencyReceipt } from '../platform/idempotency-receipts.js';
import { DynamoOrderWrites } from './store/dynamo-order-writes.js';
import { DynamoOrderReads } from './store/dynamo-order-reads.js';
import { DynamoOrderLists } from './store/dynamo-order-lists.js';

/**
 * Every orders port over one table, for the functions to wire in one line. The adapters behind it
 * are in store/, one concern a file: the writes (dynamo-order-writes.ts, their transactions built
 * in dynamo-order-transactions.ts), the reads of one order, one policy or excerpts
 * (dynamo-order-reads.ts), the sharded lists (dynamo-order-lists.ts), and the records they share
 * (dynamo-order-records.ts; records stored in older shapes read in dynamo-old-order-records.ts).
 */
export class DynamoOrderStore implements OrderStore, PolicyStore, OrderLister, PolicyLister, OrderExcerpts {
  private readonly writes: DynamoOrderWrites;
  private readonly reads: DynamoOrderReads;
  private readonly lists: DynamoOrderLists;

  constructor(doc: DynamoDBDocumentClient, tableName: string, metricsTableName: string) {
    this.writes = new DynamoOrderWrites(doc, tableName, metricsTableName);
    this.reads = new DynamoOrderReads(doc, tableName);
    this.lists = new DynamoOrderLists(doc, tableName);
  }

  create(order: Order, checkout: CheckoutRecord, receipt?: IdempotencyReceipt, redemption?: QuoteRedemption): Promise<void> {
    return this.writes.create(order, checkout, receipt, redemption);
  }
  applyChanges(
    before: Order,
    changes: readonly PlannedChange[],
    after: Pick<Order, 'subtotal' | 'updated' | 'version'>,
    receipt?: IdempotencyReceipt,
  ): Promise<void> {
    return this.writes.applyChanges(before, changes, after, receipt);
  }
  settlePolicies(
    before: Order,
    settled: readonly OrderItem[],
    after: Pick<Order, 'updated' | 'version'>,
    receipt?: IdempotencyReceipt,
    confirmation?: CancellationConfirmation,
  ): Promise<void> {
    return this.writes.settlePolicies(before, settled, after, receipt, confirmation);
  }
  rewriteTimes(before: Order, after: Order): Promise<void> {
    return this.writes.rewriteTimes(before, after);
  }
  settlePolicy(clientId: string, found: FoundPolicy, next: Policy, confirmation?: CancellationConfirmation): Promise<boolean> {
    return this.writes.settlePolicy(clientId, found, next, confirmation);
  }

  get(clientId: string, orderId: string): Promise<Order | undefined> {
    return this.reads.get(clientId, orderId);
  }
  findPolicy(clientId: string, policyNumber: string): Promise<FoundPolicy | undefined> {
    return this.reads.findPolicy(clientId, policyNumber);
  }
  excerpts(wanted: readonly ItemsWanted[]): Promise<OrderExcerpt[]> {
    return this.reads.excerpts(wanted);
  }

  listOrders(clientId: string, query: Parameters<OrderLister['listOrders']>[1]): Promise<OrderPage> {
    return this.lists.listOrders(clientId, query);
  }
  listPolicies(clientId: string, query: Parameters<PolicyLister['listPolicies']>[1]): Promise<PolicyPage> {
    return this.lists.listPolicies(clientId, query);
  }
}
