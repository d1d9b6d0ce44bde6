import { loadConfig } from '../platform/config.js';
import { systemClock } from '../platform/clock.js';
import { prefixedId } from '../platform/ids.js';
import { sharedDocumentClient } from '../platform/dynamo/dynamo-client.js';
import { signingCredentials } from '../platform/s3/s3-client.js';
import { dynamoClaimFacts } from './claim-facts.js';
import { DynamoEvidenceStore } from './dynamo-evidence-store.js';
import { S3EvidenceSigner } from './s3-evidence-signer.js';
import type { EvidenceDeps } from './evidence-files.js';
import { DynamoAuditLog, newAuditId } from '../identity/index.js';

/**
 * The evidence's adapters for the customer's and staff's routes, once per cold start: they sign
 * forms and links and never hold an S3 client (evidence-objects-deps.ts has the checks' one).
 */
export function evidenceDeps(): Pick<EvidenceDeps, 'claims' | 'files' | 'signer' | 'now' | 'fileId' | 'audit' | 'auditId'> {
  const config = loadConfig();
  const doc = sharedDocumentClient();
  const credentials = signingCredentials(config.s3Endpoint);
  return {
    claims: dynamoClaimFacts(sharedDocumentClient(), config.tableName),
    files: new DynamoEvidenceStore(doc, config.tableName),
    signer: new S3EvidenceSigner(
      { bucket: config.evidenceBucket, region: config.region, ...(config.s3Endpoint ? { endpoint: config.s3Endpoint } : {}) },
      typeof credentials === 'function' ? credentials : () => Promise.resolve(credentials),
      () => systemClock.now(),
    ),
    now: () => systemClock.now(),
    fileId: () => prefixedId('fi'),
    audit: new DynamoAuditLog(doc, config.tableName),
    auditId: newAuditId,
  };
}
