import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Client, ClientCredentials, ClientStore } from '../domain/client.js';
import { clientKey, publicKeyKey, storedRecord } from './keys.js';

/**
 * Clients live twice: the client item, and a public-key item that answers
 * "who is pk_…, what is their secret hash and rate" in one GetItem. Both are written together.
 */
export class DynamoClientStore implements ClientStore {
  constructor(private readonly doc: DynamoDBDocumentClient, private readonly tableName: string) {}

  async create(client: Client): Promise<void> {
    await this.doc.send(new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: this.tableName, Item: storedRecord(clientKey(client.client_id), 'client', client), ConditionExpression: 'attribute_not_exists(PK)' } },
        {
          Put: {
            TableName: this.tableName,
            Item: { ...publicKeyKey(client.public_key), entity: 'public_key', client_id: client.client_id, secret_hash: client.secret_hash, rate_ppm: client.rate_ppm },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      ],
    }));
  }

  async findByPublicKey(publicKey: string): Promise<ClientCredentials | undefined> {
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: publicKeyKey(publicKey) }));
    return Item ? { client_id: Item.client_id, secret_hash: Item.secret_hash, rate_ppm: Item.rate_ppm } : undefined;
  }

  async get(clientId: string): Promise<Client | undefined> {
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: clientKey(clientId) }));
    if (!Item) return undefined;
    const { client_id, name, public_key, secret_hash, rate_ppm, created } = Item;
    return { client_id, name, public_key, secret_hash, rate_ppm, created };
  }

  async replaceSecretHash(clientId: string, secretHash: string): Promise<void> {
    const client = await this.get(clientId);
    if (!client) throw new Error(`no client ${clientId}`);
    const update = (key: { PK: string; SK: string }) => ({
      Update: {
        TableName: this.tableName,
        Key: key,
        UpdateExpression: 'SET secret_hash = :hash',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':hash': secretHash },
      },
    });
    await this.doc.send(new TransactWriteCommand({ TransactItems: [update(clientKey(clientId)), update(publicKeyKey(client.public_key))] }));
  }
}
