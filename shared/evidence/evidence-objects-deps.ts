import { loadConfig } from '../platform/config.js';
import { systemClock } from '../platform/clock.js';
import { sharedDocumentClient } from '../platform/dynamo/dynamo-client.js';
import { sharedS3Client } from '../platform/s3/s3-client.js';
import { dynamoClaimFacts } from './claim-facts.js';
import { DynamoEvidenceStore } from './dynamo-evidence-store.js';
import { S3EvidenceObjects } from './s3-evidence-objects.js';
import type { EvidenceDeps } from './evidence-files.js';

/** The evidence's adapters for the checks and the eraser, once per cold start: the claims' facts, the files' records and the bucket's objects. */
export function evidenceObjectsDeps(): Pick<EvidenceDeps, 'claims' | 'files' | 'objects' | 'now'> {
  const config = loadConfig();
  return {
    claims: dynamoClaimFacts(sharedDocumentClient(), config.tableName),
    files: new DynamoEvidenceStore(sharedDocumentClient(), config.tableName),
    objects: new S3EvidenceObjects(sharedS3Client(), { bucket: config.evidenceBucket }),
    now: () => systemClock.now(),
  };
}
