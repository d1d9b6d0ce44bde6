import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { MAX_ENDPOINTS, type SigningSecret, type WebhookEndpoint, type WebhookEndpointStore } from '../domain/webhook-endpoints.js';
import { ConflictError } from '../errors.js';
import { storedRecord, webhookCountKey, webhookEndpointKey } from './keys.js';
import { cancellationCodes, cancellationError, retryOnConflict } from './transactions.js';

const strip = (record: Record<string, unknown>): WebhookEndpoint => {
  const { PK: _pk, SK: _sk, entity: _entity, ...endpoint } = record;
  return endpoint as unknown as WebhookEndpoint;
};

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
    try {
      await retryOnConflict(() =>
        this.doc.send(
          new TransactWriteCommand({
            TransactItems: [
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
            ],
          }),
        ),
      );
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes) throw err;
      if (codes[0] === 'ConditionalCheckFailed') {
        throw new ConflictError('too_many_endpoints', `A client has at most ${MAX_ENDPOINTS} webhook endpoints; delete one first.`);
      }
      throw cancellationError(codes);
    }
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

  async delete(clientId: string, id: string): Promise<boolean> {
    try {
      await retryOnConflict(() =>
        this.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              { Delete: { TableName: this.tableName, Key: webhookEndpointKey(clientId, id), ConditionExpression: 'attribute_exists(PK)' } },
              {
                Update: {
                  TableName: this.tableName,
                  Key: webhookCountKey(clientId),
                  UpdateExpression: 'ADD endpoints :minus',
                  ExpressionAttributeValues: { ':minus': -1 },
                },
              },
            ],
          }),
        ),
      );
      return true;
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes) throw err;
      if (codes[0] === 'ConditionalCheckFailed') return false;
      throw cancellationError(codes);
    }
  }

  /** Notes a delivery's result on the endpoint: `failing_since` is set by the first failure and cleared by a success. */
  async noteResult(clientId: string, id: string, ok: boolean, at: Date): Promise<string | undefined> {
    try {
      const { Attributes } = await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: webhookEndpointKey(clientId, id),
          UpdateExpression: ok ? 'REMOVE failing_since' : 'SET failing_since = if_not_exists(failing_since, :at)',
          ConditionExpression: 'attribute_exists(PK)',
          ...(ok ? {} : { ExpressionAttributeValues: { ':at': at.toISOString() } }),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return typeof Attributes?.failing_since === 'string' ? Attributes.failing_since : undefined;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return undefined; // deleted meanwhile
      throw err;
    }
  }

  async disable(clientId: string, id: string): Promise<void> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: webhookEndpointKey(clientId, id),
          UpdateExpression: 'SET #status = :disabled',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':disabled': 'disabled' },
        }),
      );
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
  }

  /** Enables an endpoint again (after a 410 or five days of failures), its failing spell forgotten; false when there is none. */
  async enable(clientId: string, id: string): Promise<WebhookEndpoint | undefined> {
    try {
      const { Attributes } = await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: webhookEndpointKey(clientId, id),
          UpdateExpression: 'SET #status = :enabled REMOVE failing_since',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':enabled': 'enabled' },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? strip(Attributes) : undefined;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return undefined;
      throw err;
    }
  }

  async replaceSecrets(clientId: string, id: string, before: readonly SigningSecret[], after: readonly SigningSecret[]): Promise<boolean> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: webhookEndpointKey(clientId, id),
          UpdateExpression: 'SET secrets = :after',
          ConditionExpression: 'secrets[0].#secret = :current',
          ExpressionAttributeNames: { '#secret': 'secret' },
          ExpressionAttributeValues: { ':after': after, ':current': before[0]?.secret ?? '' },
        }),
      );
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  }
}
