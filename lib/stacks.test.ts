import { App, Aspects, type Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { functionNames, routes } from '#shared/platform/functions.js';
import { ApiStack } from './api-stack.js';
import { DataStack } from './data-stack.js';

/** CDK assertions on the synthesized templates (bundling skipped: it is not what is under test). */
let data: Template;
let api: Template;
let stacks: Stack[];

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const dataStack = new DataStack(app, 'Data');
  const apiStack = new ApiStack(app, 'Api', { tables: dataStack.tables, signingKeys: dataStack.signingKeys, bordereaux: dataStack.bordereaux });
  Aspects.of(app).add(new AwsSolutionsChecks());
  data = Template.fromStack(dataStack);
  api = Template.fromStack(apiStack);
  stacks = [dataStack, apiStack];
});

describe('cdk-nag AwsSolutions', () => {
  it('finds no error in either stack (each suppression is justified in the code)', () => {
    const errors = stacks.flatMap((stack) => Annotations.fromStack(stack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*')));
    expect(errors.map((e) => `${e.id}: ${JSON.stringify(e.entry.data).slice(0, 120)}`)).toEqual([]);
  });

  it('stays clean with tracing on (context tracing=true)', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], tracing: true } });
    const dataStack = new DataStack(app, 'Data');
    const apiStack = new ApiStack(app, 'Api', { tables: dataStack.tables, signingKeys: dataStack.signingKeys, bordereaux: dataStack.bordereaux });
    Aspects.of(app).add(new AwsSolutionsChecks());
    Template.fromStack(apiStack).hasResourceProperties('AWS::Lambda::Function', { TracingConfig: { Mode: 'Active' } });
    expect(Annotations.fromStack(apiStack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
  });

  it('still runs: a suppression needs a reason and only covers what it names', () => {
    const suppressed = JSON.stringify(api.toJSON());
    expect(suppressed).toContain('"id":"AwsSolutions-APIG4"');
    // The token route, the quote route, the claim session and the four claim-token routes, nothing else.
    expect(suppressed.match(/"id":"AwsSolutions-APIG4"/g)).toHaveLength(7);
  });
});

type Resource = { Type: string; Properties: Record<string, any> };
const resources = (template: Template, type: string): [string, Resource][] => Object.entries(template.findResources(type) as Record<string, Resource>);

/** The logical id of the function whose id starts with the function's name. */
function functionId(name: string): string {
  const match = resources(api, 'AWS::Lambda::Function').find(([id]) => id.startsWith(name.replace(/-/g, '')) && id.includes('Function'));
  if (!match) throw new Error(`no function ${name}`);
  return match[0];
}

/** All policy statements attached to a function's role. */
function statementsOf(name: string): { Action: string | string[]; Resource: unknown }[] {
  const fn = api.findResources('AWS::Lambda::Function')[functionId(name)] as Resource;
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  return resources(api, 'AWS::IAM::Policy')
    .filter(([, policy]) => policy.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement);
}

const actionsOf = (statement: { Action: string | string[] }) => [statement.Action].flat();
const dynamoStatements = (name: string) => statementsOf(name).filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));
const tableExport = (table: 'Main' | 'Metrics') => new RegExp(`${table}Table`);

describe('routes', () => {
  const routeResources = () => resources(api, 'AWS::ApiGatewayV2::Route');

  it('has one route per entry of the route table', () => {
    expect(
      routeResources()
        .map(([, r]) => r.Properties.RouteKey)
        .sort(),
    ).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('puts the access-token authorizer on every merchant route, IAM on every operator route, and nothing on the others', () => {
    for (const [, route] of routeResources()) {
      const definition = routes.find((r) => `${r.method} ${r.path}` === route.Properties.RouteKey)!;
      if (definition.auth === 'access-token') {
        expect(route.Properties).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: expect.anything() });
      } else if (definition.auth === 'staff') {
        expect(route.Properties.AuthorizationType).toBe('AWS_IAM');
        expect(route.Properties.RouteKey).toMatch(/^(GET|POST) \/api\/v2\/admin\/(claims|bordereaux|audit)/);
      } else {
        expect(route.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
      }
    }
    expect(routeResources().find(([, r]) => r.Properties.RouteKey === 'POST /api/v2/auth/token')![1].Properties.AuthorizerId).toBeUndefined();
  });

  it('gives the operators a managed policy that invokes the operator routes of this stage and nothing else', () => {
    const policies = resources(api, 'AWS::IAM::ManagedPolicy');
    expect(policies).toHaveLength(1);
    const statements = policies[0]![1].Properties.PolicyDocument.Statement as { Action: string; Resource: unknown[] }[];
    expect(statements.map((s) => s.Action)).toEqual(['execute-api:Invoke']);
    const operatorRoutes = routes.filter((r) => r.auth === 'staff');
    expect(statements[0]!.Resource).toHaveLength(operatorRoutes.length);
    const arns = JSON.stringify(statements[0]!.Resource);
    for (const route of operatorRoutes) expect(arns).toContain(`/$default/${route.method}${route.path.replace(/\{[^}]+\}/, '*')}`);
    expect(arns).not.toMatch(/\/api\/v2\/(orders|claims\/)/);
  });

  it('uses a simple-response Lambda authorizer that is never cached', () => {
    api.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'REQUEST',
      EnableSimpleResponses: true,
      AuthorizerResultTtlInSeconds: 0,
      AuthorizerPayloadFormatVersion: '2.0',
    });
  });
});

describe('tables', () => {
  it('have point-in-time recovery, deletion protection and are retained', () => {
    const tables = resources(data, 'AWS::DynamoDB::GlobalTable');
    expect(tables).toHaveLength(2);
    for (const [, table] of tables) {
      expect(table.Properties.Replicas[0]).toMatchObject({
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
      });
    }
    data.hasResource('AWS::DynamoDB::GlobalTable', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('are pre-warmed for an on-sale only when asked (context warmWriteUnitsPerSecond)', () => {
    expect(JSON.stringify(data.toJSON())).not.toContain('WarmThroughput');
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], warmWriteUnitsPerSecond: 80000 } });
    const warmed = Template.fromStack(new DataStack(app, 'Warm'));
    const tables = resources(warmed, 'AWS::DynamoDB::GlobalTable').map(([, table]) => table.Properties.WarmThroughput as unknown);
    expect(tables).toEqual(expect.arrayContaining([{ WriteUnitsPerSecond: 80000 }, undefined]));
  });

  it('live in the data stack only', () => {
    expect(resources(api, 'AWS::DynamoDB::GlobalTable')).toHaveLength(0);
    expect(resources(api, 'AWS::DynamoDB::Table')).toHaveLength(0);
  });
});

describe('least privilege', () => {
  const expected: Record<string, { Main?: string[]; Metrics?: string[]; other?: string[] }> = {
    authorizer: { Main: ['GetItem'] },
    'auth-token': { Main: ['GetItem', 'UpdateItem'] },
    'quotes-create': { Main: ['GetItem'] },
    'quotes-decode': {},
    'orders-create': { Main: ['DeleteItem', 'GetItem', 'PutItem'], Metrics: ['PutItem'] },
    'orders-read': { Main: ['Query'] },
    'orders-change': { Main: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'] },
    'metrics-conversion': { Metrics: ['Query'] },
    // GetItem/UpdateItem on the table; the stream-read actions on the metrics table's stream ARN (none on '*').
    'metrics-aggregate': { Metrics: ['DescribeStream', 'GetItem', 'GetRecords', 'GetShardIterator', 'ListStreams', 'UpdateItem'] },
    // Query on an index only (the policy-number and list indexes, each by exact name).
    'policies-settle': { Main: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'] },
    'orders-cancel': { Main: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'] },
    'orders-list': { Main: ['Query', 'Query'], Metrics: ['GetItem'] }, // the order itself (by order_number) and the list index
    'policies-list': { Main: ['Query'] },
    'webhook-endpoints': { Main: ['ConditionCheckItem', 'DeleteItem', 'GetItem', 'PutItem', 'Query', 'Query', 'UpdateItem'] }, // the table and the retry index (a delete cancels pending deliveries)
    // Plus the main table's stream-read actions on its stream ARN.
    'webhooks-dispatch': {
      Main: ['BatchWriteItem', 'DescribeStream', 'GetItem', 'GetRecords', 'GetShardIterator', 'ListStreams', 'PutItem', 'Query', 'Query', 'UpdateItem'],
    },
    events: { Main: ['Query', 'Query', 'UpdateItem'] }, // the table and the events index
    // The metrics stream's read actions are on the metrics table's stream ARN.
    'webhooks-optouts': {
      Main: ['BatchWriteItem', 'GetItem', 'PutItem', 'Query', 'Query', 'UpdateItem'],
      Metrics: ['DescribeStream', 'GetRecords', 'GetShardIterator', 'ListStreams'],
    },
    'webhooks-retry': { Main: ['GetItem', 'Query', 'Query', 'UpdateItem'] }, // the table, and the retry and hold indexes (one statement)
    'claims-session': { Main: ['BatchGetItem', 'GetItem', 'Query', 'UpdateItem'], Metrics: ['GetItem'] },
    'claims-customer': { Main: ['PutItem', 'Query', 'UpdateItem'] },
    'claims-admin': { Main: ['BatchGetItem', 'PutItem', 'Query', 'Query', 'UpdateItem'] }, // the table (and a claim's order, items and merchant by key) and the claim queue index
    // The main stream → entries, statements and the bordereaux' marks (plus the stream's read actions).
    'ledger-record': { Main: ['DescribeStream', 'GetItem', 'GetRecords', 'GetShardIterator', 'ListStreams', 'PutItem', 'UpdateItem'] },
    'ledger-read': { Main: ['Query'] },
    'bordereaux-admin': { Main: ['GetItem', 'PutItem'] },
    // The table and the policy-number index (an older entry's facts), plus the stream's read actions.
    'bordereaux-export': {
      Main: ['BatchGetItem', 'DescribeStream', 'GetItem', 'GetRecords', 'GetShardIterator', 'ListStreams', 'Query', 'Query', 'UpdateItem'],
    },
    'test-helpers': { Main: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'] },
  };

  it('covers every function of the catalogue', () => {
    expect(Object.keys(expected).sort()).toEqual([...functionNames].sort());
  });

  it('names each index a function queries exactly, and gives a function reading a table only through an index that table', () => {
    const resources = (name: string) => dynamoStatements(name).flatMap((statement) => [statement.Resource].flat().map((r) => JSON.stringify(r)));
    expect(resources('policies-list').join()).toContain('/index/policies-by-client');
    expect(resources('orders-list').join()).toContain('/index/orders-by-client');
    expect(resources('policies-settle').join()).toContain('/index/policy-number');
    for (const name of Object.keys(expected)) expect(resources(name).join()).not.toContain('/index/*');
    api.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ TABLE_NAME: Match.anyValue(), ORDER_NUMBER_KEYS_SECRET_ID: Match.anyValue() }) },
    });
  });

  it.each(Object.entries(expected))('%s may do exactly its DynamoDB actions on its own tables', (name, tables) => {
    const granted: Record<string, string[]> = {};
    for (const statement of dynamoStatements(name)) {
      const resource = JSON.stringify(statement.Resource);
      const table = tableExport('Main').test(resource) ? 'Main' : tableExport('Metrics').test(resource) ? 'Metrics' : 'other';
      granted[table] = [...(granted[table] ?? []), ...actionsOf(statement).map((a) => a.replace('dynamodb:', ''))].sort();
    }
    expect(granted).toEqual(tables);
  });

  it('lets only the functions that sign, verify or hash read each key secret', () => {
    const readers = (secret: 'AccessTokenKeys' | 'QuoteTokenKeys' | 'ClaimTokenKeys' | 'OrderNumberKeys') =>
      Object.keys(expected)
        .filter((name) =>
          statementsOf(name).some((s) => actionsOf(s).includes('secretsmanager:GetSecretValue') && new RegExp(secret).test(JSON.stringify(s.Resource))),
        )
        .sort();

    expect(readers('AccessTokenKeys')).toEqual(['auth-token', 'authorizer']);
    expect(readers('QuoteTokenKeys')).toEqual(['orders-create', 'quotes-create', 'quotes-decode']);
    // The order-number key hashes order numbers and seals list cursors; the webhook senders open an opt-out's sealed number.
    expect(readers('OrderNumberKeys')).toEqual([
      'claims-admin',
      'claims-session',
      'events',
      'orders-create',
      'orders-list',
      'policies-list',
      'webhooks-optouts',
      'webhooks-retry',
    ]);
    // The claim token: signed by the session, verified by the customer's claim routes, read by no other.
    expect(readers('ClaimTokenKeys')).toEqual(['claims-customer', 'claims-session']);
    const ordersCreate = api.findResources('AWS::Lambda::Function')[functionId('orders-create')] as Resource;
    expect(JSON.stringify(ordersCreate.Properties.Environment.Variables.ORDER_NUMBER_KEYS_SECRET_ID)).toMatch(/OrderNumberKeys/);
  });
});

describe('the stage', () => {
  it('throttles with the context values and writes JSON access logs without bodies', () => {
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"') },
    });
    const format: string = resources(api, 'AWS::ApiGatewayV2::Stage')[0]![1].Properties.AccessLogSettings.Format;
    expect(format).not.toMatch(/body|header/i);
  });
});

describe('stream consumers', () => {
  it('read the metrics stream: new checkout records only, per shard (tumbling window), retried until they expire, then to a queue', () => {
    api.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      StartingPosition: 'TRIM_HORIZON',
      TumblingWindowInSeconds: 60,
      ParallelizationFactor: 1,
      MaximumBatchingWindowInSeconds: 30,
      MaximumRetryAttempts: -1,
      BisectBatchOnFunctionError: true,
      FilterCriteria: {
        Filters: [
          { Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['checkout'] }, counted_by: { S: ['stream'] } } } }) },
        ],
      },
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
      EventSourceArn: Match.objectLike({ 'Fn::ImportValue': Match.stringLikeRegexp('MetricsTable') }),
    });
    const alarms = resources(api, 'AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties.AlarmDescription as string);
    expect(alarms).toEqual(expect.arrayContaining([expect.stringContaining('behind its stream'), expect.stringContaining('expire unprocessed')]));
  });
});

describe('webhook functions', () => {
  it('read the main table stream at once, ten batches a shard, no tumbling window; dispatch and sweep get 60 s', () => {
    api.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      ParallelizationFactor: 10,
      TumblingWindowInSeconds: Match.absent(),
      MaximumBatchingWindowInSeconds: Match.absent(),
      EventSourceArn: Match.objectLike({ 'Fn::ImportValue': Match.stringLikeRegexp('MainTable') }),
    });
    const timeouts = resources(api, 'AWS::Lambda::Function')
      .filter(([, fn]) => fn.Properties.Timeout === 60)
      .map(([id]) => id.replace(/Function.*$/, ''));
    expect(timeouts.sort()).toEqual([
      expect.stringMatching(/^webhooksdispatch/),
      expect.stringMatching(/^webhooksoptouts/),
      expect.stringMatching(/^webhooksretry/),
    ]);
  });
});

describe('bordereaux', () => {
  const s3Statements = (name: string) => statementsOf(name).filter((statement) => actionsOf(statement).some((action) => action.startsWith('s3:')));

  it('are kept in one private bucket of the data stack: encrypted, public access blocked, TLS only, lifecycle rules, retained', () => {
    expect(resources(api, 'AWS::S3::Bucket')).toHaveLength(0);
    const buckets = resources(data, 'AWS::S3::Bucket');
    expect(buckets).toHaveLength(1);
    data.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: {
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
        LifecycleConfiguration: {
          Rules: [
            { Id: 'abort-incomplete-uploads', Status: 'Enabled', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } },
            { Id: 'expire-after-seven-years', Status: 'Enabled', Prefix: 'bordereaux/', ExpirationInDays: 2557 },
          ],
        },
      },
    });
    data.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: [Match.objectLike({ Effect: 'Deny', Action: 's3:*', Principal: { AWS: '*' }, Condition: { Bool: { 'aws:SecureTransport': 'false' } } })],
      },
    });
  });

  it('let the export write and the operator routes read objects under bordereaux/ of that bucket, exactly, and no other function touch it', () => {
    const [admin, ...others] = s3Statements('bordereaux-admin');
    expect(others).toEqual([]);
    const [exporter, ...more] = s3Statements('bordereaux-export');
    expect(more).toEqual([]);
    expect(admin).toEqual({
      Effect: 'Allow',
      Action: 's3:GetObject',
      Resource: { 'Fn::Join': ['', [{ 'Fn::ImportValue': expect.stringMatching(/Bordereaux.*Arn/) }, '/bordereaux/*']] },
    });
    expect(exporter).toEqual({
      Effect: 'Allow',
      Action: ['s3:PutObject', 's3:AbortMultipartUpload'],
      Resource: { 'Fn::Join': ['', [{ 'Fn::ImportValue': expect.stringMatching(/Bordereaux.*Arn/) }, '/bordereaux/*']] },
    });
    for (const name of functionNames.filter((name) => !name.startsWith('bordereaux-'))) expect(s3Statements(name), name).toEqual([]);
    for (const name of ['bordereaux-admin', 'bordereaux-export']) {
      const fn = api.findResources('AWS::Lambda::Function')[functionId(name)] as Resource;
      expect(fn.Properties.Environment.Variables.BORDEREAUX_BUCKET).toEqual({ 'Fn::ImportValue': expect.stringMatching(/ExportsOutputRefBordereaux/) });
    }
  });

  it('run an export per new export record of the main stream, with 15 minutes a run', () => {
    api.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: functionId('bordereaux-export') },
      EventSourceArn: Match.objectLike({ 'Fn::ImportValue': Match.stringLikeRegexp('MainTable') }),
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['bordereau'] } } } }) }] },
    });
    const fn = api.findResources('AWS::Lambda::Function')[functionId('bordereaux-export')] as Resource;
    expect(fn.Properties.Timeout).toBe(900);
  });
});

describe('observability', () => {
  it('alarms on the 5xx rate, throttles, DynamoDB system errors and authorizer errors, and has a dashboard', () => {
    const alarms = resources(api, 'AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties.AlarmDescription as string);
    expect(alarms).toEqual(
      expect.arrayContaining([
        expect.stringContaining('5xx'),
        expect.stringContaining('throttled'),
        expect.stringContaining('DynamoDB'),
        expect.stringContaining('authorizer'),
        expect.stringContaining('webhook delivery failed'),
        expect.stringContaining('more than 2 hours'),
      ]),
    );
    api.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
  });

  it('has no managed policies: each function role writes only to its own log group', () => {
    for (const [, role] of resources(api, 'AWS::IAM::Role')) expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });
});

describe('functions', () => {
  it('run nodejs22.x on arm64, each with its own log group with retention, JSON logs and no platform lines below WARN', () => {
    for (const [, fn] of resources(api, 'AWS::Lambda::Function').filter(([, f]) => f.Properties.Handler === 'index.handler')) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        LoggingConfig: { LogGroup: expect.anything(), LogFormat: 'JSON', SystemLogLevel: 'WARN', ApplicationLogLevel: 'INFO' },
      });
    }
    expect(resources(api, 'AWS::Logs::LogGroup').every(([, group]) => typeof group.Properties.RetentionInDays === 'number')).toBe(true);
  });
});
