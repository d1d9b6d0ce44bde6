import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Order, OrderItem } from '../order.js';
import { headerInMinorUnits, itemInMinorUnits } from '../stored-amounts.js';
import { orderKey } from '../../platform/dynamo/keys.js';

/**
 * Reads of records stored in older shapes, as today's: amounts in hundredths before they counted
 * their currency's minor units (stored-amounts.ts), items without a policy history, items without
 * their order's currency. `npm run migrate` rewrites them; until it has run, every read passes here.
 */

/** A header record with its amounts in minor units, whichever unit it was stored in. */
export const upgradedHeader = (record: Record<string, unknown>): Record<string, unknown> => headerInMinorUnits(record as unknown as Omit<Order, 'items'>);

/** An item record with its amounts in minor units, whichever unit it was stored in. */
export const upgradedItem = (record: Record<string, unknown>, currency: string): Record<string, unknown> =>
  itemInMinorUnits(record as unknown as OrderItem, currency) as unknown as Record<string, unknown>;

/** Items stored before policies had a history get the one step every policy starts with. */
export function withHistory(item: OrderItem): OrderItem {
  const history = item.policy.history as OrderItem['policy']['history'] | undefined;
  return history
    ? item
    : { ...item, policy: { ...item.policy, history: [{ status: 'Issued', at: item.policy.created, reason: item.policy.change_type ?? 'order_created' }] } };
}

/**
 * An item record's currency: items carry their order's since amounts count minor units; one stored
 * before costs a read of its header.
 */
export async function itemCurrency(
  doc: DynamoDBDocumentClient,
  tableName: string,
  clientId: string,
  serviceOrderId: string,
  record: Record<string, unknown>,
): Promise<string> {
  if (typeof record.currency === 'string') return record.currency;
  const { Item } = await doc.send(
    new GetCommand({ TableName: tableName, Key: orderKey(clientId, serviceOrderId), ProjectionExpression: 'currency', ConsistentRead: true }),
  );
  const currency: unknown = Item?.currency;
  if (typeof currency !== 'string') throw new Error(`the item ${String(record.SK)} has no order header`);
  return currency;
}
