import { auditPut } from '../identity/index.js';
import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { claimInMinorUnits, ELSEWHERE_WITHIN_DAYS, type Claim, type ClaimStatus, type ClaimText } from './claim.js';
import { MINOR_UNITS_MARK } from '../platform/money/index.js';
import type { Order, OrderItem } from '../orders/index.js';
import type { ClaimPage, ClaimStore, ClaimWrite, StoredClaim } from './ports.js';
import {
  claimKey,
  claimQueueKey,
  claimQueueSort,
  claimTextKey,
  customerClaimKey,
  customerClaimsPartition,
  orderItemKey,
  orderKey,
  recordFields,
  storedRecord,
} from '../platform/dynamo/keys.js';
import { batchGet } from '../platform/dynamo/batch-get.js';
import { CLAIM_QUEUE_INDEX } from '../platform/dynamo/table-definitions.js';
import { transactUnlessRefused, transactUnlessStale } from '../platform/dynamo/transactions.js';

/** A customer's mark is kept a day longer than the signal looks back (DynamoDB's TTL then deletes it). */
const CUSTOMER_CLAIM_KEPT_SECONDS = (ELSEWHERE_WITHIN_DAYS + 1) * 86_400;

const claimRecord = (claim: Claim) => {
  const record: ReturnType<typeof storedRecord<Claim>> & { queue_key?: string; queue_sort?: string } = storedRecord(claimKey(claim.claim_id), 'claim', {
    ...claim,
    ...MINOR_UNITS_MARK,
  });
  record.queue_key = claimQueueKey(claim.status);
  record.queue_sort = claimQueueSort(claim.created, claim.claim_id);
  return record;
};

/** A claim in minor units, whichever unit it was stored in (claimInMinorUnits). */
const claimOf = (record: Record<string, unknown>): Claim =>
  recordFields<Claim>(claimInMinorUnits(record as unknown as Claim) as unknown as Record<string, unknown>, ['queue_key', 'queue_sort', 'minor_units']);

const textOf = (record: Record<string, unknown>): ClaimText => ({
  description: record.description as string,
  messages: (record.messages as ClaimText['messages'] | undefined) ?? [],
  ...(typeof record.erase_at === 'string' ? { erase_at: record.erase_at } : {}),
});

/**
 * Claims on the main table: one partition per claim (its facts and its text), the queue index by
 * status, and the order records a claim touches (its header, the locks on its items).
 */
export class DynamoClaimStore implements ClaimStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Actions: the claim, its text, the order header (version read → next), then one lock per item. */
  async file(order: Order, claim: Claim, text: ClaimText, items: readonly OrderItem[], customerKey?: string): Promise<void> {
    const TransactItems = [
      ...(customerKey
        ? [
            {
              Put: {
                TableName: this.tableName,
                Item: storedRecord(customerClaimKey(customerKey, claim.created, claim.claim_id), 'customer_claim', {
                  client_id: claim.client_id,
                  created: claim.created,
                  expires_at: Math.ceil(Date.parse(claim.created) / 1000) + CUSTOMER_CLAIM_KEPT_SECONDS,
                }),
              },
            },
          ]
        : []),
      { Put: { TableName: this.tableName, Item: claimRecord(claim), ConditionExpression: 'attribute_not_exists(PK)' } },
      {
        Put: {
          TableName: this.tableName,
          Item: storedRecord(claimTextKey(claim.claim_id), 'claim_text', text),
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      {
        Update: {
          TableName: this.tableName,
          Key: orderKey(order.client_id, order.service_order_id),
          UpdateExpression: 'SET version = :next, claim_ids = list_append(if_not_exists(claim_ids, :none), :claim)',
          ConditionExpression: 'version = :read',
          ExpressionAttributeValues: { ':next': order.version + 1, ':read': order.version, ':none': [], ':claim': [claim.claim_id] },
        },
      },
      ...items.map((item) => ({
        Update: {
          TableName: this.tableName,
          Key: orderItemKey(order.client_id, order.service_order_id, item.reference_number),
          UpdateExpression: 'SET open_claim = :claim',
          ConditionExpression: '#policy.#status = :issued AND attribute_not_exists(replaced_by) AND attribute_not_exists(open_claim)',
          ExpressionAttributeNames: { '#policy': 'policy', '#status': 'status' },
          ExpressionAttributeValues: { ':claim': claim.claim_id, ':issued': 'Issued' },
        },
      })),
    ];
    // The order or one of its items moved since it was read: the use case reads it again and says why.
    await transactUnlessStale(this.doc, TransactItems);
  }

  async claimsOfCustomer(customerKey: string, since: string, limit: number): Promise<{ client_id: string; created: string }[]> {
    const { Items = [] } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk AND SK >= :since',
        ExpressionAttributeValues: { ':pk': customerClaimsPartition(customerKey), ':since': since },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return Items.map((item) => ({ client_id: String(item.client_id), created: String(item.created) }));
  }

  async get(claimId: string): Promise<StoredClaim | undefined> {
    const { Items = [] } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': claimKey(claimId).PK },
        ConsistentRead: true,
      }),
    );
    const claim = Items.find((record) => record.SK === 'CLAIM');
    const text = Items.find((record) => record.SK === 'TEXT');
    return claim && { claim: claimOf(claim), ...(text ? { text: textOf(text) } : {}) };
  }

  async getMany(claimIds: readonly string[]): Promise<Claim[]> {
    const records = await batchGet(this.doc, this.tableName, claimIds.map(claimKey), { consistent: true });
    const found = new Map(records.map((record) => [String(record.claim_id), claimOf(record)]));
    return claimIds.flatMap((id) => found.get(id) ?? []);
  }

  /**
   * Actions: the claim (only at the version read); its text, when the transition adds a message or
   * closes the claim (the erase time, and `expires_at` for DynamoDB's TTL); its items, when it
   * claims them (status Claimed, lock lifted; the order header's `updated` and version move) or
   * releases them (lock lifted).
   */
  transition(before: Claim, after: Claim, write: ClaimWrite): Promise<boolean> {
    const at = after.updated;
    const textUpdate = textAction(this.tableName, after.claim_id, write);
    const itemActions = (write.policies ? after.policies : []).map((policy) => ({
      Update: {
        TableName: this.tableName,
        Key: orderItemKey(after.client_id, after.service_order_id, policy.reference_number),
        ...(write.policies === 'claim'
          ? {
              UpdateExpression: 'SET #policy.#status = :claimed, #policy.history = list_append(#policy.history, :step) REMOVE open_claim',
              ExpressionAttributeNames: { '#policy': 'policy', '#status': 'status' },
              ExpressionAttributeValues: { ':claimed': 'Claimed', ':step': [{ status: 'Claimed', at, reason: 'claim_approved' }], ':claim': after.claim_id },
            }
          : { UpdateExpression: 'REMOVE open_claim', ExpressionAttributeValues: { ':claim': after.claim_id } }),
        ConditionExpression: 'open_claim = :claim',
      },
    }));
    const header =
      write.policies === 'claim'
        ? [
            {
              Update: {
                TableName: this.tableName,
                Key: orderKey(after.client_id, after.service_order_id),
                UpdateExpression: 'SET updated = :at ADD version :one',
                ConditionExpression: 'attribute_exists(PK)',
                ExpressionAttributeValues: { ':at': at, ':one': 1 },
              },
            },
          ]
        : [];
    const claimPut = {
      TableName: this.tableName,
      Item: claimRecord(after),
      ConditionExpression: 'version = :read',
      ExpressionAttributeValues: { ':read': before.version },
    };
    const audit = write.audit ? [auditPut(this.tableName, write.audit)] : [];
    const TransactItems = [{ Put: claimPut }, ...(textUpdate ? [textUpdate] : []), ...itemActions, ...header, ...audit];
    return transactUnlessRefused(this.doc, TransactItems);
  }

  async ofOrder(clientId: string, orderId: string): Promise<Claim[]> {
    const { Item } = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: orderKey(clientId, orderId), ProjectionExpression: 'claim_ids', ConsistentRead: true }),
    );
    const ids = Array.isArray(Item?.claim_ids) ? (Item.claim_ids as string[]) : [];
    const claims = ids.length === 0 ? [] : await this.getMany(ids);
    return claims.sort((a, b) => claimQueueSort(a.created, a.claim_id).localeCompare(claimQueueSort(b.created, b.claim_id)));
  }

  async queue(status: ClaimStatus, query: { after?: string; limit: number }): Promise<ClaimPage> {
    const { Items = [] } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: CLAIM_QUEUE_INDEX,
        KeyConditionExpression: query.after === undefined ? 'queue_key = :key' : 'queue_key = :key AND queue_sort > :after',
        ExpressionAttributeValues: { ':key': claimQueueKey(status), ...(query.after === undefined ? {} : { ':after': query.after }) },
        Limit: query.limit + 1,
      }),
    );
    const claims = Items.slice(0, query.limit).map(claimOf);
    const last = claims[claims.length - 1];
    return { claims, ...(Items.length > query.limit && last ? { next: claimQueueSort(last.created, last.claim_id) } : {}) };
  }
}

/** The text's update for a transition: a message appended, the erase time set (TTL in epoch seconds). */
function textAction(tableName: string, claimId: string, write: ClaimWrite) {
  const sets: string[] = [];
  const values: Record<string, unknown> = {};
  if (write.message) {
    sets.push('messages = list_append(if_not_exists(messages, :none), :message)');
    values[':none'] = [];
    values[':message'] = [write.message];
  }
  if (write.eraseAt) {
    sets.push('erase_at = :erase, expires_at = :expires');
    values[':erase'] = write.eraseAt;
    values[':expires'] = Math.ceil(Date.parse(write.eraseAt) / 1000);
  }
  if (sets.length === 0) return undefined;
  return {
    Update: {
      TableName: tableName,
      Key: claimTextKey(claimId),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: values,
    },
  };
}
