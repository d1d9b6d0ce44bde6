import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { MAX_ENDPOINTS, type SigningSecret, type TestRequest, type WebhookEndpoint, type WebhookEndpointStore } from './webhook-endpoints.js';
import { ConflictError } from '../platform/errors.js';
import {
  recordFields,
  storedRecord,
  webhookCountKey,
  webhookEndpointKey,
  webhookClientTestWindowKey,
  webhookTestKey,
  webhookTestWindowKey,
} from '../platform/dynamo/keys.js';
import { transactUnlessRefused, unlessConditionFails } from '../platform/dynamo/transactions.js';

const strip = (record: Record<string, unknown>): WebhookEndpoint => recordFields<WebhookEndpoint>(record);

/**
 * A client's endpoints share one partition (`CLIENT#<id>#WEBHOOKS`) with their count: creating
 * one is a transaction of the count (only while below MAX_ENDPOINTS) and the endpoint, deleting
 * one the reverse, so 20 concurrent creates leave exactly MAX_ENDPOINTS.
 */
export class DynamoWebhookEndpoints implements WebhookEndpointStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(endpoint: WebhookEndpoint): Promise<void> {
    // The count comes first: its condition keeps a client at MAX_ENDPOINTS.
    const written = await transactUnlessRefused(this.doc, [
      {
        Update: {
          TableName: this.tableName,
          Key: webhookCountKey(endpoint.client_id),
          UpdateExpression: 'SET entity = :entity ADD endpoints :one',
          ConditionExpression: 'attribute_not_exists(endpoints) OR endpoints < :max',
          ExpressionAttributeValues: { ':entity': 'webhook_count', ':one': 1, ':max': MAX_ENDPOINTS },
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: storedRecord(webhookEndpointKey(endpoint.client_id, endpoint.id), 'webhook_endpoint', endpoint),
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
    ]);
    if (!written) throw new ConflictError('too_many_endpoints', `A client has at most ${MAX_ENDPOINTS} webhook endpoints; delete one first.`);
  }

  async list(clientId: string): Promise<WebhookEndpoint[]> {
    const { Items = [] } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :endpoint)',
        ExpressionAttributeValues: { ':pk': webhookCountKey(clientId).PK, ':endpoint': 'ENDPOINT#' },
        ConsistentRead: true,
      }),
    );
    return Items.map(strip).sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : a.id < b.id ? -1 : 1));
  }

  async get(clientId: string, id: string): Promise<WebhookEndpoint | undefined> {
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: webhookEndpointKey(clientId, id), ConsistentRead: true }));
    return Item ? strip(Item) : undefined;
  }

  delete(clientId: string, id: string): Promise<boolean> {
    return transactUnlessRefused(this.doc, [
      { Delete: { TableName: this.tableName, Key: webhookEndpointKey(clientId, id), ConditionExpression: 'attribute_exists(PK)' } },
      {
        Update: {
          TableName: this.tableName,
          Key: webhookCountKey(clientId),
          UpdateExpression: 'ADD endpoints :minus',
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
    ]);
  }

  /**
   * The endpoint's state checked, the window's counts (the endpoint's and its client's) moved and
   * the request kept in one transaction: a test is never kept for an endpoint deleted or disabled
   * meanwhile, no burst of concurrent tests passes either limit, and a refused test counts nowhere.
   * The client's count outlives any endpoint, so deleting and creating endpoints gains no tests.
   * Kept a day (TTL): the dispatcher takes it at once; the window's counts an hour past its window.
   */
  async requestTest(
    test: TestRequest,
    limits: { endpoint: number; client: number },
    window: { index: number; endsAt: number },
  ): Promise<'kept' | 'refused' | 'endpoint_limited' | 'client_limited'> {
    const expires = Math.floor(window.endsAt / 1000) + 3600;
    let limited: 'endpoint_limited' | 'client_limited' | undefined;
    const kept = await transactUnlessRefused(
      this.doc,
      [
        {
          ConditionCheck: {
            TableName: this.tableName,
            Key: webhookEndpointKey(test.client_id, test.endpoint_id),
            ConditionExpression: 'attribute_exists(PK) AND #status = :enabled',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':enabled': 'enabled' },
          },
        },
        {
          Update: {
            TableName: this.tableName,
            Key: webhookTestWindowKey(test.client_id, test.endpoint_id, window.index),
            UpdateExpression: 'SET entity = :entity, expires_at = :expires ADD tests :one',
            ConditionExpression: 'attribute_not_exists(tests) OR tests < :limit',
            ExpressionAttributeValues: { ':entity': 'webhook_test_window', ':expires': expires, ':one': 1, ':limit': limits.endpoint },
          },
        },
        {
          Update: {
            TableName: this.tableName,
            Key: webhookClientTestWindowKey(test.client_id, window.index),
            UpdateExpression: 'SET entity = :entity, expires_at = :expires ADD tests :one',
            ConditionExpression: 'attribute_not_exists(tests) OR tests < :limit',
            ExpressionAttributeValues: { ':entity': 'webhook_client_test_window', ':expires': expires, ':one': 1, ':limit': limits.client },
          },
        },
        {
          Put: {
            TableName: this.tableName,
            Item: {
              ...storedRecord(webhookTestKey(test.client_id, test.event_id), 'webhook_test', test),
              expires_at: Math.floor(Date.parse(test.created) / 1000) + 86_400,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      ],
      (codes) => {
        const failed = (n: number) => codes[n] === 'ConditionalCheckFailed';
        // A gone or disabled endpoint is that, whatever the counts say; then the endpoint's limit, then the client's.
        limited = failed(0) ? undefined : failed(1) ? 'endpoint_limited' : failed(2) ? 'client_limited' : undefined;
        return failed(0) || limited !== undefined;
      },
    );
    return kept ? 'kept' : (limited ?? 'refused');
  }

  /**
   * One conditional update of an existing endpoint (`condition` besides its existence): the
   * endpoint as it now is, or undefined when it is gone or the condition refused the update.
   */
  private async update(
    clientId: string,
    id: string,
    update: { expression: string; condition?: string; names?: Record<string, string>; values?: Record<string, unknown> },
  ): Promise<WebhookEndpoint | undefined> {
    const answer = await unlessConditionFails(
      this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: webhookEndpointKey(clientId, id),
          UpdateExpression: update.expression,
          ConditionExpression: update.condition ?? 'attribute_exists(PK)',
          ...(update.names ? { ExpressionAttributeNames: update.names } : {}),
          ...(update.values ? { ExpressionAttributeValues: update.values } : {}),
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return answer?.Attributes ? strip(answer.Attributes) : undefined;
  }

  /** Notes a delivery's result on the endpoint: `failing_since` is set by the first failure and cleared by a success; `timed_out` tells the last failure's kind. */
  async noteResult(clientId: string, id: string, ok: boolean, at: Date, timedOut = false): Promise<string | undefined> {
    const endpoint = await this.update(
      clientId,
      id,
      ok
        ? { expression: 'REMOVE failing_since, timed_out' }
        : {
            expression: 'SET failing_since = if_not_exists(failing_since, :at), timed_out = :timedOut',
            values: { ':at': at.toISOString(), ':timedOut': timedOut },
          },
    );
    return endpoint?.failing_since;
  }

  async disable(clientId: string, id: string): Promise<void> {
    await this.update(clientId, id, { expression: 'SET #status = :disabled', names: { '#status': 'status' }, values: { ':disabled': 'disabled' } });
  }

  /** Enables an endpoint again (after a 410 or five days of failures), its failing spell forgotten; undefined when there is none. */
  enable(clientId: string, id: string): Promise<WebhookEndpoint | undefined> {
    return this.update(clientId, id, {
      expression: 'SET #status = :enabled REMOVE failing_since, timed_out',
      names: { '#status': 'status' },
      values: { ':enabled': 'enabled' },
    });
  }

  async replaceSecrets(clientId: string, id: string, before: readonly SigningSecret[], after: readonly SigningSecret[]): Promise<boolean> {
    const replaced = await this.update(clientId, id, {
      expression: 'SET secrets = :after',
      condition: 'secrets[0].#secret = :current',
      names: { '#secret': 'secret' },
      values: { ':after': after, ':current': before[0]?.secret ?? '' },
    });
    return replaced !== undefined;
  }
}
