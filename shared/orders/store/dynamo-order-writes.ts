import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CheckoutRecord } from '../../conversion/index.js';
import type { Order, OrderItem, Policy } from '../order.js';
import type { CancellationConfirmation, FoundPolicy, OrderWriter, PlannedChange, PolicySettler, QuoteRedemption } from '../ports.js';
import type { IdempotencyReceipt } from '../../platform/idempotency-receipts.js';
import { ChangeRejectedError, ConflictError } from '../../platform/errors.js';
import { cancellationCodes, cancellationError, isOnlyConflict, transactUnlessRefused, transactUnlessStale } from '../../platform/dynamo/transactions.js';
import {
  changeTransaction,
  createTransaction,
  failedChange,
  REDEMPTION_ACTION,
  rewriteTimesTransaction,
  settlePolicyTransaction,
  settleTransaction,
} from './dynamo-order-transactions.js';

/**
 * The order writes over DynamoDB: each is one transaction (dynamo-order-transactions.ts builds
 * them), and each cancellation is read back as the refusal it means.
 */
export class DynamoOrderWrites implements OrderWriter, PolicySettler {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly metricsTableName: string,
  ) {}

  async create(order: Order, checkout: CheckoutRecord, receipt?: IdempotencyReceipt, redemption?: QuoteRedemption): Promise<void> {
    const TransactItems = createTransaction({ tableName: this.tableName, metricsTableName: this.metricsTableName }, order, checkout, receipt, redemption);
    // The checkout record comes first: its condition guards the order number; then the quote's
    // redemption, whose condition lets the quote sell one order. The order number is named first:
    // a retry of the order that redeemed the quote meets both.
    let refusal: ConflictError | undefined;
    const written = await transactUnlessRefused(this.doc, TransactItems, (codes) => {
      if (codes[0] === 'ConditionalCheckFailed')
        refusal = new ConflictError('order_exists', 'An order with this order_number was already submitted.', 'order_number');
      else if (redemption && codes[REDEMPTION_ACTION] === 'ConditionalCheckFailed')
        refusal = new ConflictError(
          'quote_redeemed',
          'This quote token was already redeemed by another order: a quote sells one order; ask for a new quote.',
          'token',
        );
      return refusal !== undefined;
    });
    if (!written) throw refusal!;
    if (receipt) receipt.committed = true;
  }

  /** Cancellation reasons map back to the change that failed. */
  async applyChanges(
    before: Order,
    changes: readonly PlannedChange[],
    after: Pick<Order, 'subtotal' | 'updated' | 'version'>,
    receipt?: IdempotencyReceipt,
  ): Promise<void> {
    const TransactItems = changeTransaction(this.tableName, before, changes, after, receipt);
    try {
      await this.doc.send(new TransactWriteCommand({ TransactItems }));
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes) throw err;
      if (isOnlyConflict(codes) || codes[0] === 'ConditionalCheckFailed') throw new ChangeRejectedError('stale');
      const failed = failedChange(codes.findIndex((code) => code === 'ConditionalCheckFailed'));
      const change = failed && changes[failed.change];
      if (!failed || !change) throw cancellationError(codes);
      throw new ChangeRejectedError(failed.reason, change.index);
    }
    if (receipt) receipt.committed = true;
  }

  async settlePolicies(
    before: Order,
    settled: readonly OrderItem[],
    after: Pick<Order, 'updated' | 'version'>,
    receipt?: IdempotencyReceipt,
    confirmation?: CancellationConfirmation,
  ): Promise<void> {
    const TransactItems = settleTransaction(this.tableName, before, settled, after, receipt, confirmation);
    if (TransactItems.length === 0) return;
    // The version moved, or a policy left Issued since the read: plan again on the order as it is now.
    await transactUnlessStale(this.doc, TransactItems);
    if (receipt) receipt.committed = true;
  }

  async rewriteTimes(before: Order, after: Order): Promise<void> {
    await transactUnlessStale(this.doc, rewriteTimesTransaction(this.tableName, before, after));
  }

  /** The item's policy, only if still Issued, and the order's `updated`, in one transaction. */
  async settlePolicy(clientId: string, found: FoundPolicy, next: Policy, confirmation?: CancellationConfirmation): Promise<boolean> {
    try {
      await this.doc.send(new TransactWriteCommand({ TransactItems: settlePolicyTransaction(this.tableName, clientId, found, next, confirmation) }));
      return true;
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes) throw err;
      if (codes[0] === 'ConditionalCheckFailed' || isOnlyConflict(codes)) return false;
      throw cancellationError(codes);
    }
  }
}
