import { auditPut, type AuditRecord } from '../identity/index.js';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  DEFAULT_LOOK_PERIOD_DAYS,
  FIRST_KEY_GENERATION,
  type Client,
  type ClientCredentials,
  type ClientLabel,
  type ClientNames,
  type ClientRegister,
  type ClientSummary,
  type Suspension,
  type ClientStatus,
  type ClientStatusStore,
  type ClientStore,
  type FailedSignIns,
} from './client.js';
import { clientKey, clientRegisterKey, CLIENTS_PARTITION, publicKeyKey, storedRecord, termsKey, type Key } from '../platform/dynamo/keys.js';
import { liveTermsOf, type LiveTerms, type TermsVersion } from '../terms/index.js';
import type { RatePpm } from '../platform/money/index.js';
import { batchGet } from '../platform/dynamo/batch-get.js';
import { transactUnlessRefused } from '../platform/dynamo/transactions.js';
import { keyModeOf } from './test-mode.js';

/**
 * Clients live twice: the client item, and a public-key item that answers
 * "who is pk_…, what is their secret hash and rate" in one GetItem. Both are written together,
 * with the client's place in the register the console lists clients from (CLIENTS / CLIENT#<id>).
 * Both carry `key_generation` and `disabled`; the public-key item also keeps the key's recent
 * failed sign-ins and its lockout (`failed_sign_ins`, `locked_until`).
 */
export class DynamoClientStore implements ClientStore, ClientStatusStore, FailedSignIns, ClientNames, ClientRegister {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(client: Client, firstTerms: TermsVersion, audit?: AuditRecord): Promise<void> {
    const status: ClientStatus = { key_generation: FIRST_KEY_GENERATION, disabled: false };
    const terms = { terms_latest: firstTerms.version, terms_live: [liveTermsOf(firstTerms)] };
    await this.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: this.tableName,
              Item: storedRecord(clientKey(client.client_id), 'client', { ...client, ...status, ...terms }),
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          {
            Put: {
              TableName: this.tableName,
              Item: {
                ...publicKeyKey(client.public_key),
                entity: 'public_key',
                client_id: client.client_id,
                secret_hash: client.secret_hash,
                rate_ppm: client.rate_ppm,
                ...status,
                terms_live: terms.terms_live,
              },
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          // Its first terms version (shared/terms/dynamo-terms-store.ts keeps the versions that follow).
          {
            Put: {
              TableName: this.tableName,
              Item: storedRecord(termsKey(client.client_id, firstTerms.version), 'terms', firstTerms),
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
          // Its place in the register the console lists clients from (the id only: the client's record stays the one truth).
          { Put: { TableName: this.tableName, Item: storedRecord(clientRegisterKey(client.client_id), 'client_register', { client_id: client.client_id }) } },
          ...(audit ? [auditPut(this.tableName, audit)] : []),
        ],
      }),
    );
  }

  /** The register's page of ids (one Query), then those clients' records (one BatchGetItem, without the secret's hash). */
  async page(limit: number, after?: string): Promise<{ clients: ClientSummary[]; next?: string }> {
    const { Items = [], LastEvaluatedKey } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': CLIENTS_PARTITION },
        Limit: limit,
        ...(after ? { ExclusiveStartKey: clientRegisterKey(after) } : {}),
      }),
    );
    const ids = Items.map((item) => String(item.client_id));
    const records = await batchGet(this.doc, this.tableName, ids.map(clientKey), {
      consistent: true,
      projection: {
        expression: '#id, #name, #pk, #rate, #look, #disabled, #created, #live, #suspended',
        names: {
          '#id': 'client_id',
          '#name': 'name',
          '#pk': 'public_key',
          '#rate': 'rate_ppm',
          '#look': 'look_period_days',
          '#disabled': 'disabled',
          '#created': 'created',
          '#live': 'terms_live',
          '#suspended': 'suspended',
        },
      },
    });
    const byId = new Map(records.map((record) => [String(record.client_id), record]));
    const clients = ids.flatMap((id): ClientSummary[] => {
      const record = byId.get(id);
      if (!record) return [];
      return [
        {
          client_id: id,
          name: String(record.name),
          mode: keyModeOf(String(record.public_key)),
          rate_ppm: record.rate_ppm as RatePpm,
          look_period_days: typeof record.look_period_days === 'number' ? record.look_period_days : DEFAULT_LOOK_PERIOD_DAYS,
          disabled: record.disabled === true,
          created: String(record.created),
          ...(Array.isArray(record.terms_live) ? { terms_live: record.terms_live as LiveTerms[] } : {}),
          ...(record.suspended ? { suspended: record.suspended as Suspension } : {}),
        },
      ];
    });
    return { clients, ...(LastEvaluatedKey ? { next: String(LastEvaluatedKey.SK).slice('CLIENT#'.length) } : {}) };
  }

  async findByPublicKey(publicKey: string): Promise<ClientCredentials | undefined> {
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: publicKeyKey(publicKey) }));
    if (!Item) return undefined;
    const stored = Item as StoredPublicKey;
    return {
      client_id: stored.client_id,
      secret_hash: stored.secret_hash,
      rate_ppm: stored.rate_ppm,
      ...(stored.terms_live ? { terms_live: stored.terms_live } : {}),
      ...(stored.suspended ? { suspended: stored.suspended } : {}),
      ...statusOf(stored),
      locked_until: stored.locked_until,
      failed_sign_ins: stored.failed_sign_ins ?? [],
    };
  }

  async get(clientId: string, consistent = false): Promise<Client | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: clientKey(clientId), ...(consistent ? { ConsistentRead: true } : {}) }),
    );
    if (!Item) return undefined;
    const { client_id, name, public_key, secret_hash, rate_ppm, look_period_days, created, terms_live, suspended } = Item as Partial<Client> &
      Omit<Client, 'look_period_days'>;
    return {
      client_id,
      name,
      public_key,
      secret_hash,
      rate_ppm,
      look_period_days: look_period_days ?? DEFAULT_LOOK_PERIOD_DAYS,
      created,
      ...(terms_live ? { terms_live } : {}),
      ...(suspended ? { suspended } : {}),
    };
  }

  /** Only the id, the name and the public key (its mode) are read (a client's record also holds its secret's hash). */
  async names(clientIds: readonly string[]): Promise<Map<string, ClientLabel>> {
    const records = await batchGet(this.doc, this.tableName, clientIds.map(clientKey), {
      projection: { expression: '#id, #name, #pk', names: { '#id': 'client_id', '#name': 'name', '#pk': 'public_key' } },
    });
    return new Map(records.map((record) => [String(record.client_id), { name: String(record.name), mode: keyModeOf(String(record.public_key)) }]));
  }

  async replaceSecretHash(clientId: string, secretHash: string): Promise<void> {
    await this.updateBoth(clientId, 'SET secret_hash = :hash, key_generation = if_not_exists(key_generation, :first) + :one', {
      ':hash': secretHash,
      ':first': FIRST_KEY_GENERATION,
      ':one': 1,
    });
  }

  async setSuspension(clientId: string, suspension: Suspension | null, audit: AuditRecord): Promise<boolean> {
    // On the state the use case read: of two requests at once, one moves the client and writes its audit record.
    const state = suspension ? 'attribute_not_exists(suspended)' : 'attribute_exists(suspended)';
    const items = await this.updateBothItems(
      clientId,
      suspension ? 'SET suspended = :suspended' : 'REMOVE suspended',
      suspension ? { ':suspended': suspension } : {},
      audit,
      state,
    );
    return transactUnlessRefused(this.doc, items);
  }

  async disable(clientId: string, audit?: AuditRecord): Promise<void> {
    await this.updateBoth(clientId, 'SET disabled = :disabled', { ':disabled': true }, audit);
  }

  /** Strongly consistent, so that a status cached for a minute is never older than the write it follows. */
  async status(clientId: string): Promise<ClientStatus | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({
        TableName: this.tableName,
        Key: clientKey(clientId),
        ProjectionExpression: 'PK, key_generation, disabled',
        ConsistentRead: true,
      }),
    );
    return Item ? statusOf(Item) : undefined;
  }

  async recordFailedSignIn(publicKey: string, at: number): Promise<number[]> {
    const { Attributes } = await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: publicKeyKey(publicKey),
        UpdateExpression: 'SET failed_sign_ins = list_append(if_not_exists(failed_sign_ins, :none), :at)',
        ExpressionAttributeValues: { ':none': [], ':at': [at] },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return (Attributes?.failed_sign_ins as number[] | undefined) ?? [at];
  }

  async lockSignIns(publicKey: string, until: number): Promise<void> {
    await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: publicKeyKey(publicKey),
        UpdateExpression: 'SET locked_until = :until',
        ExpressionAttributeValues: { ':until': until },
      }),
    );
  }

  async trimFailedSignIns(publicKey: string, seen: number, keep: number): Promise<void> {
    const oldest = Array.from({ length: seen - keep }, (_, index) => `failed_sign_ins[${index}]`);
    if (oldest.length === 0) return;
    try {
      // Only if nobody changed the list's length meanwhile: two concurrent trims must not both drop the head.
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: publicKeyKey(publicKey),
          UpdateExpression: `REMOVE ${oldest.join(', ')}`,
          ConditionExpression: 'size(failed_sign_ins) = :seen',
          ExpressionAttributeValues: { ':seen': seen },
        }),
      );
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
  }

  /** One update of the client item and its public-key item, in one transaction. */
  private async updateBoth(clientId: string, expression: string, values: Record<string, unknown>, audit?: AuditRecord): Promise<void> {
    await this.doc.send(new TransactWriteCommand({ TransactItems: await this.updateBothItems(clientId, expression, values, audit) }));
  }

  /** The same update of the client's record (first, with `state` as its condition too) and its public key's, and the audit record. */
  private async updateBothItems(clientId: string, expression: string, values: Record<string, unknown>, audit?: AuditRecord, state?: string) {
    const client = await this.get(clientId);
    if (!client) throw new Error(`no client ${clientId}`);
    const update = (key: Key, condition = 'attribute_exists(PK)') => ({
      Update: {
        TableName: this.tableName,
        Key: key,
        UpdateExpression: expression,
        ConditionExpression: condition,
        ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
      },
    });
    return [
      update(clientKey(clientId), state ? `attribute_exists(PK) AND ${state}` : undefined),
      update(publicKeyKey(client.public_key)),
      ...(audit ? [auditPut(this.tableName, audit)] : []),
    ];
  }
}

/** Clients created before generations existed are at the first one. */
/** The public-key item as stored (records from before revocation lack the status fields). */
type StoredPublicKey = Pick<ClientCredentials, 'client_id' | 'secret_hash' | 'rate_ppm' | 'locked_until' | 'terms_live' | 'suspended'> &
  Partial<ClientStatus> & { failed_sign_ins?: number[] };

const statusOf = (item: Record<string, unknown>): ClientStatus => ({
  key_generation: typeof item.key_generation === 'number' ? item.key_generation : FIRST_KEY_GENERATION,
  disabled: item.disabled === true,
});
