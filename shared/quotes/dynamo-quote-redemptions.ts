import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { quoteRedemptionKey } from '../platform/dynamo/keys.js';
import type { QuoteRedemption, QuoteRedemptions } from './ports.js';

/**
 * The redemption record the order's transaction writes (`CLIENT#<id>#QUOTE#<quote_id>` /
 * `REDEEMED`), read consistently: a merchant checking a token right after its order sees the order.
 */
export class DynamoQuoteRedemptions implements QuoteRedemptions {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async redeemedBy(clientId: string, quoteId: string): Promise<QuoteRedemption | undefined> {
    const { Item } = await this.doc.send(
      new GetCommand({
        TableName: this.tableName,
        Key: quoteRedemptionKey(clientId, quoteId),
        ConsistentRead: true,
        ProjectionExpression: 'service_order_id, redeemed_at',
      }),
    );
    return Item ? { serviceOrderId: String(Item.service_order_id), redeemedAt: String(Item.redeemed_at) } : undefined;
  }
}
