import { loadConfig } from '../platform/config.js';
import { systemClock } from '../platform/clock.js';
import { prefixedId } from '../platform/ids.js';
import { sharedDocumentClient } from '../platform/dynamo/dynamo-client.js';
import { sharedS3Client, signingCredentials } from '../platform/s3/s3-client.js';
import { DynamoClaimStore } from '../claims/dynamo-claim-store.js';
import { DynamoEvidenceStore } from './dynamo-evidence-store.js';
import { S3EvidenceObjects } from './s3-evidence-objects.js';
import type { EvidenceDeps } from './evidence-files.js';

/** The evidence's adapters, once per cold start: the functions' composition root. */
export function evidenceDeps(): EvidenceDeps {
  const config = loadConfig();
  const doc = sharedDocumentClient();
  const claims = new DynamoClaimStore(doc, config.tableName);
  const credentials = signingCredentials(config.s3Endpoint);
  return {
    claims: { claimOf: async (claimId) => (await claims.get(claimId))?.claim },
    files: new DynamoEvidenceStore(doc, config.tableName),
    objects: new S3EvidenceObjects(
      sharedS3Client(),
      { bucket: config.evidenceBucket, region: config.region, ...(config.s3Endpoint ? { endpoint: config.s3Endpoint } : {}) },
      typeof credentials === 'function' ? credentials : () => Promise.resolve(credentials),
      () => systemClock.now(),
    ),
    now: () => systemClock.now(),
    fileId: () => prefixedId('fi'),
  };
}
