import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoClaimStore } from '../claims/dynamo-claim-store.js';
import type { ClaimFacts } from './ports.js';

/** A claim's facts from the claims room's store (the evidence reads no claim text). */
export function dynamoClaimFacts(doc: DynamoDBDocumentClient, tableName: string): ClaimFacts {
  const claims = new DynamoClaimStore(doc, tableName);
  return { claimOf: async (claimId) => (await claims.get(claimId))?.claim };
}
