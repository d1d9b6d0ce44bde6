/** Environment read once per cold start. Every function and the local server share these names. */
export interface ServiceConfig {
  tableName: string;
  metricsTableName: string;
  /** Set locally (DynamoDB Local); unset on AWS. */
  dynamodbEndpoint?: string;
  region: string;
  /** The bucket the bordereaux are written to. */
  bordereauxBucket: string;
  /** The bucket the claims' evidence is uploaded to, checked in and scanned in. */
  evidenceBucket: string;
  /** Set locally (npm start's s3rver on 127.0.0.1); unset on AWS. */
  s3Endpoint?: string;
  accessTokenTtlSeconds: number;
  quoteTokenTtlSeconds: number;
  /** A customer's claim session (a claim token) lasts this long. */
  claimTokenTtlSeconds: number;
}

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

export function loadConfig(): ServiceConfig {
  return {
    tableName: process.env.TABLE_NAME || 'order-protection',
    metricsTableName: process.env.METRICS_TABLE_NAME || 'order-protection-metrics',
    dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
    region: process.env.AWS_REGION || 'us-east-1',
    bordereauxBucket: process.env.BORDEREAUX_BUCKET || 'order-protection-bordereaux',
    evidenceBucket: process.env.EVIDENCE_BUCKET || 'order-protection-evidence',
    s3Endpoint: process.env.S3_ENDPOINT || undefined,
    accessTokenTtlSeconds: positiveInt('ACCESS_TOKEN_TTL_SECONDS', 900),
    quoteTokenTtlSeconds: positiveInt('QUOTE_TOKEN_TTL_SECONDS', 7 * 24 * 3600),
    claimTokenTtlSeconds: positiveInt('CLAIM_TOKEN_TTL_SECONDS', 1800),
  };
}
