import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { auditPut, type AuditRecord } from '../identity/index.js';
import { clientKey, publicKeyKey, storedRecord, termsKey, TERMS_SORT_PREFIX } from '../platform/dynamo/keys.js';
import { transactUnlessRefused } from '../platform/dynamo/transactions.js';
import type { TermsHead, TermsStore } from './ports.js';
import type { LiveTerms, TermsVersion } from './terms.js';

/**
 * Each version is an item of the client's partition (`CLIENT#<id>` / `TERMS#<0000000001>`), never
 * changed. The client's item holds the head: `terms_latest` (the last number given) and
 * `terms_live` (the version in force when it was written and those scheduled after it). The
 * public-key item holds `terms_live` too, so that a quote, which already reads that item, prices
 * without another read. A publish writes the version, both heads and its audit record in one
 * transaction, only while `terms_latest` is still what the publisher read.
 */
export class DynamoTermsStore implements TermsStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async head(clientId: string): Promise<TermsHead | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({
        TableName: this.tableName,
        Key: clientKey(clientId),
        ProjectionExpression: 'client_id, public_key, terms_latest, terms_live',
      }),
    );
    if (!Item) return undefined;
    return {
      client_id: clientId,
      public_key: String(Item.public_key),
      latest: typeof Item.terms_latest === 'number' ? Item.terms_latest : 0,
      live: (Item.terms_live as LiveTerms[] | undefined) ?? [],
    };
  }

  async publish(version: TermsVersion, head: TermsHead, live: LiveTerms[], audit?: AuditRecord): Promise<'published' | 'stale'> {
    const written = await transactUnlessRefused(
      this.doc,
      [
        {
          Put: {
            TableName: this.tableName,
            Item: storedRecord(termsKey(version.client_id, version.version), 'terms', version),
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Update: {
            TableName: this.tableName,
            Key: clientKey(version.client_id),
            UpdateExpression: 'SET terms_latest = :next, terms_live = :live',
            ConditionExpression: head.latest === 0 ? 'attribute_exists(PK) AND attribute_not_exists(terms_latest)' : 'terms_latest = :latest',
            ExpressionAttributeValues: { ':next': version.version, ':live': live, ...(head.latest === 0 ? {} : { ':latest': head.latest }) },
          },
        },
        {
          Update: {
            TableName: this.tableName,
            Key: publicKeyKey(head.public_key),
            UpdateExpression: 'SET terms_live = :live',
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeValues: { ':live': live },
          },
        },
        ...(audit ? [auditPut(this.tableName, audit)] : []),
      ],
      (codes) => codes[0] === 'ConditionalCheckFailed' || codes[1] === 'ConditionalCheckFailed',
    );
    return written ? 'published' : 'stale';
  }

  async page(clientId: string, limit: number, before?: number): Promise<{ versions: TermsVersion[]; next?: number }> {
    const { Items = [], LastEvaluatedKey } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: before === undefined ? 'PK = :pk AND begins_with(SK, :prefix)' : 'PK = :pk AND SK BETWEEN :prefix AND :before',
        ExpressionAttributeValues: {
          ':pk': clientKey(clientId).PK,
          ':prefix': TERMS_SORT_PREFIX,
          ...(before === undefined ? {} : { ':before': termsKey(clientId, before - 1).SK }),
        },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    const versions = Items.map(versionOf);
    return { versions, ...(LastEvaluatedKey && versions.length > 0 ? { next: versions.at(-1)!.version } : {}) };
  }

  async get(clientId: string, version: number): Promise<TermsVersion | undefined> {
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: termsKey(clientId, version) }));
    return Item ? versionOf(Item) : undefined;
  }
}

const versionOf = (item: Record<string, unknown>): TermsVersion => {
  const { client_id, version, effective_from, rate_bands, minimum_premium, commission_ppm, look_period_days, created, created_by } =
    item as unknown as TermsVersion;
  return { client_id, version, effective_from, rate_bands, minimum_premium, commission_ppm, look_period_days, created, created_by };
};
