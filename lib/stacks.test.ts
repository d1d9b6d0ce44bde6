import { App, Aspects, type Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { functionNames, routes, scheduledFunctions } from '#shared/platform/functions.js';
import { SCOPE_PREFIX, STAFF_ROLES } from '#shared/platform/staff.js';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';
import { MERCHANT_CLIENT_ATTRIBUTE as TRIGGER_ATTRIBUTE } from '../functions/staff-token-claims/handler.js';
import { apiReferenceSecurityHeaders, pageSecurityHeaders } from '../scripts/local/page-headers.js';
import { buildWidget } from '../widget/build.js';
import { scratchFolder } from '../test/support/scratch.js';
import { COGNITO_STAFF_ACTIONS } from '#shared/identity/cognito-staff-directory.js';
import { USER_POOL_VARIABLE } from '#shared/identity/staff-directory-deps.js';
import { ApiStack, apiFunctionNames } from './api-stack.js';
import { DataStack } from './data-stack.js';
import { DEFAULT_WEB_RATE_LIMIT, EDGE_REGION, EdgeStack, MANAGED_RULE_GROUPS, WEB_ACL_ARN_PARAMETER } from './edge-stack.js';
import { IdentityStack, MERCHANT_CLIENT_ATTRIBUTE, PASSWORD_POLICY, RESOURCE_SERVER_ID, SCRIPT_ROLES } from './identity-stack.js';
import { API_PATH_PATTERN, PAGE_INDEX_FUNCTION, PAGE_PATHS, WIDGET_STABLE_MAX_AGE, WIDGET_VERSIONED_MAX_AGE, siteFrom, widgetVersionedName } from './web.js';

/** CDK assertions on the synthesized templates (bundling skipped: it is not what is under test). */
let data: Template;
let api: Template;
let identity: Template;
let edge: Template;
let stacks: Stack[];
let widgetCode: string;

/** Where this file's apps write their assemblies (each App a folder of its own in the file's). */
const work = scratchFolder('stacks-test');
const testApp = (context: Record<string, unknown>) =>
  new App({ outdir: mkdtempSync(join(work, 'cdk.out-')), context: { 'aws:cdk:bundling-stacks': [], ...context } });

/** The app as bin/app.ts makes it (without the pages' folder: the web stack's own test gives one). */
function makeApp(context: Record<string, unknown> = {}, site: ReturnType<typeof siteFrom> = { widgetCode }) {
  const app = testApp(context);
  const dataStack = new DataStack(app, 'Data');
  const identityStack = new IdentityStack(app, 'Identity');
  const edgeStack = new EdgeStack(app, 'Edge');
  const apiStack = new ApiStack(app, 'Api', {
    tables: dataStack.tables,
    signingKeys: dataStack.signingKeys,
    bordereaux: dataStack.bordereaux,
    evidence: dataStack.evidence,
    identity: {
      userPool: identityStack.userPool,
      issuer: identityStack.userPool.userPoolProviderUrl,
      signInUrl: identityStack.domain.baseUrl(),
      tokenClaims: identityStack.tokenClaims.fn,
    },
    site,
  });
  apiStack.addStackDependency(edgeStack);
  Aspects.of(app).add(new AwsSolutionsChecks());
  return { dataStack, identityStack, edgeStack, apiStack };
}

beforeAll(async () => {
  widgetCode = await buildWidget();
  const { dataStack, identityStack, edgeStack, apiStack } = makeApp();
  data = Template.fromStack(dataStack);
  api = Template.fromStack(apiStack);
  identity = Template.fromStack(identityStack);
  edge = Template.fromStack(edgeStack);
  stacks = [dataStack, identityStack, edgeStack, apiStack];
});

describe('cdk-nag AwsSolutions', () => {
  it('finds no error in any stack (each suppression is justified in the code)', () => {
    const errors = stacks.flatMap((stack) => Annotations.fromStack(stack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*')));
    expect(errors.map((e) => `${e.id}: ${JSON.stringify(e.entry.data).slice(0, 120)}`)).toEqual([]);
  });

  it('stays clean with tracing on (context tracing=true)', () => {
    const { apiStack } = makeApp({ tracing: true });
    Template.fromStack(apiStack).hasResourceProperties('AWS::Lambda::Function', { TracingConfig: { Mode: 'Active' } });
    expect(Annotations.fromStack(apiStack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
  });

  it('still runs: a suppression needs a reason and only covers what it names', () => {
    const suppressed = JSON.stringify(api.toJSON());
    expect(suppressed).toContain('"id":"AwsSolutions-APIG4"');
    // The token route, the quote route, the claim session and the seven claim-token routes, nothing else.
    expect(suppressed.match(/"id":"AwsSolutions-APIG4"/g)).toHaveLength(10);
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

describe('room to grow', () => {
  /** CloudFormation's resources a stack may hold; a stack past 90 % of it fails here first, while splitting it is still a choice. */
  const CLOUDFORMATION_STACK_RESOURCES = 500;
  it('keeps each stack under 90 % of the resources CloudFormation takes in one (the API stack holds every function, route and alarm)', () => {
    const counts = Object.fromEntries(stacks.map((stack) => [stack.stackName, Object.keys(Template.fromStack(stack).toJSON().Resources ?? {}).length]));
    for (const [name, count] of Object.entries(counts)) expect(count, `${name}: ${count} resources`).toBeLessThanOrEqual(CLOUDFORMATION_STACK_RESOURCES * 0.9);
  });
});

describe('routes', () => {
  const routeResources = () => resources(api, 'AWS::ApiGatewayV2::Route');

  it('has one route per entry of the route table', () => {
    expect(
      routeResources()
        .map(([, r]) => r.Properties.RouteKey)
        .sort(),
    ).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
  });

  const authorizerIds = (type: 'JWT' | 'REQUEST') =>
    resources(api, 'AWS::ApiGatewayV2::Authorizer')
      .filter(([, a]) => a.Properties.AuthorizerType === type)
      .map(([id]) => id);

  it('puts the access-token authorizer on every merchant route, the staff JWT authorizer on every staff route, and nothing on the others', () => {
    const [jwt] = authorizerIds('JWT');
    const [lambda] = authorizerIds('REQUEST');
    const staffRoutes = routes.filter((r) => r.auth === 'staff');
    expect(staffRoutes.length).toBeGreaterThan(0);
    for (const [, route] of routeResources()) {
      const definition = routes.find((r) => `${r.method} ${r.path}` === route.Properties.RouteKey)!;
      if (definition.auth === 'access-token') {
        expect(route.Properties).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: lambda } });
      } else if (definition.auth === 'staff') {
        // Never IAM, never open: the JWT authorizer, then the handler's role check with the catalogue's roles.
        expect(route.Properties, route.Properties.RouteKey).toMatchObject({ AuthorizationType: 'JWT', AuthorizerId: { Ref: jwt } });
        expect(definition.roles?.length, route.Properties.RouteKey).toBeGreaterThan(0);
        for (const role of definition.roles!) expect(STAFF_ROLES).toContain(role);
        expect(route.Properties.RouteKey).toMatch(/^(GET|POST) \/api\/v2\/admin\//);
      } else {
        expect(route.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
      }
    }
    expect(JSON.stringify(api.toJSON())).not.toContain('AWS_IAM');
    expect(routeResources().find(([, r]) => r.Properties.RouteKey === 'POST /api/v2/auth/token')![1].Properties.AuthorizerId).toBeUndefined();
  });

  it("checks staff tokens against the user pool: its issuer, the pages' and the scripts' clients as audience, the Authorization header", () => {
    expect(authorizerIds('JWT')).toHaveLength(1);
    const [, jwt] = resources(api, 'AWS::ApiGatewayV2::Authorizer').find(([, a]) => a.Properties.AuthorizerType === 'JWT')!;
    expect(jwt.Properties).toMatchObject({
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: {
        Issuer: { 'Fn::ImportValue': expect.stringMatching(/StaffPool.*ProviderURL/) },
        Audience: [{ Ref: expect.stringMatching(/^PagesClient/) }, { Ref: expect.stringMatching(/^ScriptsClient/) }],
      },
    });
  });

  it('gives IAM principals no way in any more: no operator managed policy, no policy output', () => {
    expect(resources(api, 'AWS::IAM::ManagedPolicy')).toEqual([]);
    expect(JSON.stringify(api.toJSON().Outputs)).not.toMatch(/ClaimsOperatorPolicy|execute-api:Invoke/);
  });

  it("lets the merchant routes' authorizer accept a merchant user's token: the pool's issuer, the pages' client", () => {
    const fn = api.findResources('AWS::Lambda::Function')[functionId('authorizer')] as Resource;
    expect(fn.Properties.Environment.Variables).toMatchObject({
      STAFF_ISSUER: { 'Fn::ImportValue': expect.stringMatching(/StaffPool.*ProviderURL/) },
      STAFF_AUDIENCES: { Ref: expect.stringMatching(/^PagesClient/) },
    });
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
    const app = testApp({ warmWriteUnitsPerSecond: 80000 });
    const warmed = Template.fromStack(new DataStack(app, 'Warm'));
    const tables = resources(warmed, 'AWS::DynamoDB::GlobalTable').map(([, table]) => table.Properties.WarmThroughput as unknown);
    expect(tables).toEqual(expect.arrayContaining([{ WriteUnitsPerSecond: 80000 }, undefined]));
  });

  it('declare the index of the past bordereau exports (newest first), which bordereaux-admin queries by its exact name', () => {
    const [, main] = resources(data, 'AWS::DynamoDB::GlobalTable').find(([, table]) => table.Properties.GlobalSecondaryIndexes)!;
    expect(main.Properties.GlobalSecondaryIndexes).toContainEqual(
      expect.objectContaining({
        IndexName: 'bordereaux-by-created',
        KeySchema: [
          { AttributeName: 'blist_key', KeyType: 'HASH' },
          { AttributeName: 'blist_sort', KeyType: 'RANGE' },
        ],
      }),
    );
    const queried = dynamoStatements('bordereaux-admin').filter((statement) => [statement.Action].flat().includes('dynamodb:Query'));
    expect(JSON.stringify(queried)).toContain('/index/bordereaux-by-created');
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
    'quotes-decode': { Main: ['GetItem'] },
    'orders-create': { Main: ['DeleteItem', 'GetItem', 'PutItem', 'Query'], Metrics: ['GetItem', 'PutItem'] },
    'orders-read': { Main: ['Query'] },
    'orders-change': { Main: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'] },
    'metrics-conversion': { Metrics: ['Query'] },
    // GetItem/UpdateItem on the table; the stream-read actions on the metrics table's stream ARN (none on '*').
    'metrics-aggregate': { Metrics: ['DescribeStream', 'GetItem', 'GetRecords', 'GetShardIterator', 'ListStreams', 'UpdateItem'] },
    // Query on an index only (the policy-number and list indexes, each by exact name).
    'policies-settle': { Main: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'] },
    'orders-cancel': { Main: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'] },
    'cancellations-confirm': { Main: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'Query', 'UpdateItem'] }, // the order's partition, and the policy-number index
    'orders-list': { Main: ['Query', 'Query'], Metrics: ['GetItem'] }, // the order itself (by order_number) and the list index
    'policies-list': { Main: ['GetItem', 'Query'] }, // the list index, and an old item's order header
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
    'claims-admin': { Main: ['BatchGetItem', 'GetItem', 'PutItem', 'Query', 'Query', 'UpdateItem'], Metrics: ['GetItem'] }, // and the search by order number: its id by the number's hash, its claim ids
    'admin-audit': { Main: ['Query'] }, // the audit log's partition, newest first
    'admin-staff': { Main: ['GetItem', 'PutItem'] }, // a merchant user's client, and the audit record of a person added
    'admin-terms': { Main: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'] }, // a client's terms head and versions; a publish's transaction
    'admin-clients': { Main: ['BatchGetItem', 'Query'] }, // the register of clients, then their records // the table (and a claim's order, items and merchant by key) and the claim queue index
    // The main stream → entries, statements and the bordereaux' marks (plus the stream's read actions).
    'ledger-record': { Main: ['DescribeStream', 'GetItem', 'GetRecords', 'GetShardIterator', 'ListStreams', 'PutItem', 'UpdateItem'] },
    'ledger-read': { Main: ['GetItem', 'Query'] }, // a month's entries or statement, its close and the months its balance walks
    'admin-collections': { Main: ['GetItem', 'PutItem', 'Query', 'UpdateItem'] }, // a remittance's transaction, payments, statements, suspension
    'statements-close': { Main: ['GetItem', 'PutItem', 'Query', 'UpdateItem'] }, // each client's closes, months and statements
    'bordereaux-admin': { Main: ['GetItem', 'PutItem', 'Query', 'Query'] }, // the table and the past exports' index
    // The table and the policy-number index (an older entry's facts), plus the stream's read actions.
    'bordereaux-export': {
      Main: ['BatchGetItem', 'DescribeStream', 'GetItem', 'GetRecords', 'GetShardIterator', 'ListStreams', 'Query', 'Query', 'UpdateItem'],
    },
    'test-helpers': { Main: ['DeleteItem', 'GetItem', 'PutItem', 'Query', 'UpdateItem'] },
    'claims-files': { Main: ['GetItem', 'PutItem', 'Query', 'UpdateItem'] }, // the claim, its files and their count
    'evidence-admin': { Main: ['GetItem', 'PutItem', 'Query'] }, // the claim and its files, and the audit record of a file opened
    'evidence-check': { Main: ['GetItem', 'PutItem', 'Query', 'UpdateItem'] }, // the claim, a file and its claim's count
    // Closed claims' erasures noted from the main stream (plus its read actions), then done hourly.
    'evidence-erase': { Main: ['DeleteItem', 'DescribeStream', 'GetItem', 'GetRecords', 'GetShardIterator', 'ListStreams', 'PutItem', 'Query'] },
  };

  it("covers every function of the catalogue that the API stack deploys (the user pool's trigger is the identity stack's)", () => {
    expect(Object.keys(expected).sort()).toEqual([...apiFunctionNames].sort());
    expect(functionNames.filter((name) => !apiFunctionNames.includes(name as never))).toEqual(['staff-token-claims']);
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
      'admin-audit',
      'admin-clients',
      'admin-collections',
      'admin-staff',
      'admin-terms',
      'bordereaux-admin',
      'claims-admin',
      'claims-customer',
      'claims-session',
      'events',
      'ledger-read',
      'orders-create',
      'orders-list',
      'policies-list',
      'webhooks-optouts',
      'webhooks-retry',
    ]);
    // The claim token: signed by the session, verified by the customer's claim routes, read by no other.
    expect(readers('ClaimTokenKeys')).toEqual(['claims-customer', 'claims-files', 'claims-session']);
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
    // The API stack's buckets are the site's and its access logs' (lib/web.ts), never bordereaux.
    expect(resources(api, 'AWS::S3::Bucket').map(([id]) => id.replace(/[0-9A-F]{8}$/, ''))).toEqual(['WebLogs', 'WebSite']);
    const buckets = resources(data, 'AWS::S3::Bucket');
    expect(buckets.map(([id]) => id.replace(/[0-9A-F]{8}$/, ''))).toEqual(['Bordereaux', 'Evidence']);
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
    for (const name of apiFunctionNames.filter((name) => !name.startsWith('bordereaux-') && !evidenceFunctions.includes(name)))
      expect(s3Statements(name), name).toEqual([]);
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

const evidenceFunctions = ['claims-files', 'evidence-admin', 'evidence-check', 'evidence-erase'];

describe('evidence', () => {
  const s3Statements = (name: string) => statementsOf(name).filter((statement) => actionsOf(statement).some((action) => action.startsWith('s3:')));
  const objects = (prefix: string) => ({ 'Fn::Join': ['', [{ 'Fn::ImportValue': expect.stringMatching(/Evidence.*Arn/) }, `/${prefix}*`]] });

  it('is a private, encrypted, TLS-only bucket that tells EventBridge, takes browser POSTs, clears stale uploads and is retained', () => {
    const [[, bucket]] = resources(data, 'AWS::S3::Bucket').filter(([id]) => id.startsWith('Evidence')) as [[string, Resource]];
    expect((bucket as Resource & { DeletionPolicy?: string }).DeletionPolicy).toBe('Retain');
    expect(bucket.Properties).toMatchObject({
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      CorsConfiguration: { CorsRules: [{ AllowedMethods: ['POST'], AllowedOrigins: ['*'], AllowedHeaders: ['*'], MaxAge: 600 }] },
      LifecycleConfiguration: {
        Rules: [
          { Id: 'abort-incomplete-uploads', Status: 'Enabled', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } },
          { Id: 'uploads-never-judged', Status: 'Enabled', Prefix: 'uploads/', ExpirationInDays: 1 },
          { Id: 'files-backstop', Status: 'Enabled', Prefix: 'files/', ExpirationInDays: 1095 },
        ],
      },
    });
    expect(bucket.Properties.NotificationConfiguration).toEqual({ EventBridgeConfiguration: { EventBridgeEnabled: true } });
    expect(resources(data, 'AWS::Lambda::Function')).toEqual([]); // no custom resource sets it
  });

  it('is scanned by GuardDuty Malware Protection for S3 under uploads/, with a role that only GuardDuty assumes and that reads only uploads', () => {
    data.hasResourceProperties('AWS::GuardDuty::MalwareProtectionPlan', {
      ProtectedResource: { S3Bucket: { BucketName: { Ref: Match.stringLikeRegexp('^Evidence') }, ObjectPrefixes: ['uploads/'] } },
      Actions: { Tagging: { Status: 'DISABLED' } },
      Role: { 'Fn::GetAtt': [Match.stringLikeRegexp('^EvidenceScanRole'), 'Arn'] },
    });
    const [[, role]] = resources(data, 'AWS::IAM::Role').filter(([id]) => id.startsWith('EvidenceScanRole')) as [[string, Resource]];
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'malware-protection-plan.guardduty.amazonaws.com' } },
    ]);
    const statements = role.Properties.Policies[0].PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[];
    const reads = statements.find((statement) => [statement.Action].flat().includes('s3:GetObject'))!;
    expect(reads.Resource).toEqual({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [expect.stringMatching(/^Evidence/), 'Arn'] }, '/uploads/*']] });
    expect(
      statements
        .flatMap((statement) => [statement.Action].flat())
        .filter((action) => action.startsWith('s3:'))
        .sort(),
    ).toEqual(['s3:GetBucketNotification', 's3:GetObject', 's3:GetObjectVersion', 's3:ListBucket', 's3:PutBucketNotification', 's3:PutObject']);
  });

  it('sends uploads landed and GuardDuty verdicts on this bucket, and nothing else, to evidence-check', () => {
    const rules = resources(api, 'AWS::Events::Rule').filter(([, rule]) => JSON.stringify(rule.Properties.Targets).includes(functionId('evidence-check')));
    expect(rules.map(([, rule]) => rule.Properties.EventPattern)).toEqual([
      {
        source: ['aws.s3'],
        'detail-type': ['Object Created'],
        detail: {
          bucket: { name: [expect.objectContaining({ 'Fn::ImportValue': expect.stringMatching(/RefEvidence/) })] },
          object: { key: [{ prefix: 'uploads/' }] },
        },
      },
      {
        source: ['aws.guardduty'],
        'detail-type': ['GuardDuty Malware Protection Object Scan Result'],
        detail: { s3ObjectDetails: { bucketName: [expect.objectContaining({ 'Fn::ImportValue': expect.stringMatching(/RefEvidence/) })] } },
      },
    ]);
  });

  it('grants each evidence function exactly its objects, and no other function any', () => {
    expect(s3Statements('claims-files')).toEqual([{ Effect: 'Allow', Action: 's3:PutObject', Resource: objects('uploads/') }]);
    expect(s3Statements('evidence-admin')).toEqual([{ Effect: 'Allow', Action: 's3:GetObject', Resource: objects('files/') }]);
    expect(s3Statements('evidence-check')).toEqual([
      { Effect: 'Allow', Action: ['s3:GetObject', 's3:DeleteObject'], Resource: [objects('uploads/'), objects('files/')] },
      { Effect: 'Allow', Action: 's3:PutObject', Resource: objects('files/') },
    ]);
    expect(s3Statements('evidence-erase')).toEqual([{ Effect: 'Allow', Action: 's3:DeleteObject', Resource: [objects('uploads/'), objects('files/')] }]);
    for (const name of evidenceFunctions) {
      const fn = api.findResources('AWS::Lambda::Function')[functionId(name)] as Resource;
      expect(fn.Properties.Environment.Variables.EVIDENCE_BUCKET).toEqual({ 'Fn::ImportValue': expect.stringMatching(/ExportsOutputRefEvidence/) });
    }
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

  it('names the distribution a custom site domain points at, beside the site URL', () => {
    const outputs = api.findOutputs('*');
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['SiteUrl', 'DistributionDomainName', 'ApiUrl']));
    expect(JSON.stringify(outputs.DistributionDomainName!.Value)).toContain('DomainName');
  });

  it('pages on every failed run of a function no caller sees: the scheduled ones, the evidence check, the sign-in trigger', () => {
    const failing = resources(api, 'AWS::CloudWatch::Alarm')
      .map(([, alarm]) => String(alarm.Properties.AlarmDescription))
      .filter((description) => description.endsWith('which no caller sees (scheduled, or told by an event).'))
      .map((description) => description.split(' ')[0]);
    expect(failing.sort()).toEqual([...scheduledFunctions.map(({ name }) => name), 'evidence-check', 'staff-token-claims'].sort());
  });

  it('alarms on DynamoDB system errors per table with every operation named (the metric has no data without its Operation), at most 10 metrics each', () => {
    type Query = { Id: string; MetricStat?: { Metric: { MetricName: string; Dimensions: { Name: string; Value: unknown }[] } } };
    const dynamo = resources(api, 'AWS::CloudWatch::Alarm').filter(([, alarm]) => String(alarm.Properties.AlarmDescription).includes('DynamoDB answered'));
    expect(dynamo.map(([, alarm]) => alarm.Properties.AlarmDescription)).toEqual([
      'DynamoDB answered with system errors (5xx on its side) on the main table.',
      'DynamoDB answered with system errors (5xx on its side) on the metrics table.',
    ]);
    for (const [id, alarm] of dynamo) {
      const stats = (alarm.Properties.Metrics as Query[]).filter((query) => query.MetricStat);
      expect(stats.length, id).toBeLessThanOrEqual(10);
      const operations = stats.map((query) => {
        expect(query.MetricStat!.Metric.MetricName).toBe('SystemErrors');
        return query.MetricStat!.Metric.Dimensions.find((dimension) => dimension.Name === 'Operation')?.Value;
      });
      expect(operations.sort(), id).toEqual(
        ['BatchGetItem', 'BatchWriteItem', 'DeleteItem', 'GetItem', 'GetRecords', 'PutItem', 'Query', 'Scan', 'TransactWriteItems', 'UpdateItem'].sort(),
      );
    }
  });

  it("has no managed policies: each function role writes only to its own log group (CDK's two deploy-time helpers aside)", () => {
    const managed = resources(api, 'AWS::IAM::Role')
      .filter(([, role]) => role.Properties.ManagedPolicyArns !== undefined)
      .map(([id]) => id);
    // The site copier (BucketDeployment) and the web ACL lookup (AwsCustomResource), both made by CDK.
    expect(managed.sort()).toEqual([expect.stringMatching(/^AWS679f53fac002430cb0da5b7982bd2287/), expect.stringMatching(/^CustomCDKBucketDeployment/)]);
    for (const [, role] of resources(identity, 'AWS::IAM::Role')) expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });
});

describe('functions', () => {
  it('run nodejs22.x on arm64, each with its own log group with retention, JSON logs and no platform lines below WARN', () => {
    const service = [...resources(api, 'AWS::Lambda::Function'), ...resources(identity, 'AWS::Lambda::Function')].filter(([, f]) => f.Properties.LoggingConfig);
    expect(service).toHaveLength(functionNames.length);
    for (const [, fn] of service) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        LoggingConfig: { LogGroup: expect.anything(), LogFormat: 'JSON', SystemLogLevel: 'WARN', ApplicationLogLevel: 'INFO' },
      });
    }
    for (const template of [api, identity])
      expect(resources(template, 'AWS::Logs::LogGroup').every(([, group]) => typeof group.Properties.RetentionInDays === 'number')).toBe(true);
  });
});

describe('the staff sign-in (identity stack)', () => {
  it('is a retained user pool without self sign-up, with MFA required (TOTP), strong passwords and the Essentials plan', () => {
    identity.hasResource('AWS::Cognito::UserPool', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
        MfaConfiguration: 'ON',
        EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
        Policies: {
          PasswordPolicy: {
            MinimumLength: PASSWORD_POLICY.minLength,
            PasswordHistorySize: PASSWORD_POLICY.historySize,
            RequireLowercase: true,
            RequireNumbers: true,
            RequireSymbols: true,
            RequireUppercase: true,
            TemporaryPasswordValidityDays: PASSWORD_POLICY.temporaryPasswordDays,
          },
        },
        UserPoolTier: 'ESSENTIALS',
        DeletionProtection: 'ACTIVE',
      }),
    });
    expect(PASSWORD_POLICY.minLength).toBeGreaterThanOrEqual(12);
  });

  it('binds a merchant user to one client by an attribute only an administrator sets, which the trigger reads', () => {
    const [, pool] = resources(identity, 'AWS::Cognito::UserPool')[0]!;
    expect(pool.Properties.Schema).toContainEqual(expect.objectContaining({ Name: MERCHANT_CLIENT_ATTRIBUTE, Mutable: false, AttributeDataType: 'String' }));
    expect(`custom:${MERCHANT_CLIENT_ATTRIBUTE}`).toBe(TRIGGER_ATTRIBUTE);
    // The pages' client may read it and write nothing at all.
    api.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      ClientName: 'order-protection-pages',
      ReadAttributes: Match.arrayWith([`custom:${MERCHANT_CLIENT_ATTRIBUTE}`, 'email']),
      WriteAttributes: [],
    });
  });

  it('runs staff-token-claims before issuing a token (event version 2), from the identity stack, not the API stack', () => {
    const [triggerId] = resources(identity, 'AWS::Lambda::Function').find(([id]) => id.startsWith('stafftokenclaims'))!;
    identity.hasResourceProperties('AWS::Cognito::UserPool', {
      LambdaConfig: { PreTokenGenerationConfig: { LambdaVersion: 'V2_0', LambdaArn: { 'Fn::GetAtt': [triggerId, 'Arn'] } } },
    });
    identity.hasResourceProperties('AWS::Lambda::Permission', { Principal: 'cognito-idp.amazonaws.com', FunctionName: { 'Fn::GetAtt': [triggerId, 'Arn'] } });
    expect(resources(api, 'AWS::Lambda::Function').filter(([id]) => id.startsWith('stafftokenclaims'))).toEqual([]);
  });

  it("lets admin-staff alone reach the user pool: exactly the Cognito adapter's actions on that one pool, whose id is in its environment", () => {
    const cognito = (name: string) => statementsOf(name).filter((s) => actionsOf(s).some((a) => a.startsWith('cognito-idp:')));
    const [statement, ...others] = cognito('admin-staff');
    expect(others).toEqual([]);
    expect(actionsOf(statement!).sort()).toEqual(COGNITO_STAFF_ACTIONS.map((action) => `cognito-idp:${action}`).sort());
    expect(JSON.stringify(statement!.Resource)).toMatch(/StaffPool.*Arn/);
    for (const name of apiFunctionNames.filter((n) => n !== 'admin-staff')) expect(cognito(name), name).toEqual([]);
    const staffFunction = api.findResources('AWS::Lambda::Function')[functionId('admin-staff')] as Resource;
    expect(JSON.stringify(staffFunction.Properties.Environment.Variables[USER_POOL_VARIABLE])).toMatch(/StaffPool/);
  });

  it('has a group per role, the order-protection resource server with a scope per script role, and a hosted sign-in domain', () => {
    const groups = resources(identity, 'AWS::Cognito::UserPoolGroup').map(([, g]) => g.Properties.GroupName as string);
    expect(groups.sort()).toEqual([...STAFF_ROLES].sort());
    identity.hasResourceProperties('AWS::Cognito::UserPoolResourceServer', {
      Identifier: RESOURCE_SERVER_ID,
      Scopes: SCRIPT_ROLES.map((role) => ({ ScopeName: role, ScopeDescription: Match.anyValue() })),
    });
    expect(`${RESOURCE_SERVER_ID}/`).toBe(SCOPE_PREFIX);
    identity.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: Match.anyValue(), ManagedLoginVersion: 1 });
  });
});

describe('the app clients', () => {
  const client = (name: string) => resources(api, 'AWS::Cognito::UserPoolClient').find(([, c]) => c.Properties.ClientName === name)![1].Properties;

  it('give the pages authorization code (PKCE: public, no secret) with OpenID and e-mail only, and come back to the console and the portal', () => {
    const pages = client('order-protection-pages');
    expect(pages).toMatchObject({
      GenerateSecret: false,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthScopes: ['openid', 'email'],
      SupportedIdentityProviders: ['COGNITO'],
    });
    // No role scope: a person's role is a group, or anyone could ask for order-protection/admin.
    expect(JSON.stringify(pages.AllowedOAuthScopes)).not.toContain(SCOPE_PREFIX);
    const urls = JSON.stringify(pages.CallbackURLs);
    expect(urls).toMatch(/"https:\/\/",\{"Fn::GetAtt":\["WebDistribution[0-9A-F]+","DomainName"\]\},"\/admin\/"/);
    expect(urls).toContain('"/portal/"');
    expect(pages.LogoutURLs).toEqual(pages.CallbackURLs);
  });

  it('give scripts client credentials with a secret and the role scopes, nothing else', () => {
    expect(client('order-protection-scripts')).toMatchObject({
      GenerateSecret: true,
      AllowedOAuthFlows: ['client_credentials'],
      AllowedOAuthScopes: SCRIPT_ROLES.map((role) => `${SCOPE_PREFIX}${role}`),
    });
    expect(client('order-protection-scripts').CallbackURLs).toBeUndefined();
  });
});

describe('the pages (bucket, CloudFront, web ACL)', () => {
  const distribution = () => resources(api, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
  const behaviour = (pattern: string) => distribution().CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === pattern);
  const policy = (ref: { Ref: string }) =>
    (api.findResources('AWS::CloudFront::ResponseHeadersPolicy')[ref.Ref] as Resource).Properties.ResponseHeadersPolicyConfig;

  it('serves a private bucket through Origin Access Control, HTTPS only, TLS 1.2 or later, with logs', () => {
    api.resourceCountIs('AWS::CloudFront::Distribution', 1);
    const [siteId] = resources(api, 'AWS::S3::Bucket').find(([id]) => id.startsWith('WebSite'))!;
    api.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: Match.anyValue(),
      LoggingConfiguration: { DestinationBucketName: Match.anyValue(), LogFilePrefix: 'site/' },
    });
    api.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always' }),
    });
    const origins = distribution().Origins as { S3OriginConfig?: unknown; OriginAccessControlId?: unknown; DomainName: unknown }[];
    const s3 = origins.filter((o) => o.S3OriginConfig);
    expect(s3).toHaveLength(1);
    expect(s3[0]!.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/OriginAccessControl/), 'Id'] });
    // The bucket lets CloudFront read, for this distribution only, and refuses plain HTTP; no public principal is allowed anything.
    const [, bucketPolicy] = resources(api, 'AWS::S3::BucketPolicy').find(([, p]) => JSON.stringify(p.Properties.Bucket).includes(siteId))!;
    const statements = bucketPolicy.Properties.PolicyDocument.Statement as { Effect: string; Principal: unknown; Condition?: unknown; Action: unknown }[];
    expect(statements.filter((s) => s.Effect === 'Allow')).toEqual([
      expect.objectContaining({
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Action: 's3:GetObject',
        Condition: { StringEquals: { 'AWS:SourceArn': expect.anything() } },
      }),
    ]);
    expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
    const config = distribution();
    for (const b of [config.DefaultCacheBehavior, ...config.CacheBehaviors]) expect(b.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(config.Logging).toEqual({ Bucket: { 'Fn::GetAtt': [expect.stringMatching(/^WebLogs/), 'RegionalDomainName'] }, Prefix: 'cloudfront/' });
  });

  it('requires TLS 1.2 or later on a domain of its own (context siteDomain and siteCertificateArn), which the sign-in then sends people back to', () => {
    const certificate = 'arn:aws:acm:us-east-1:111122223333:certificate/00000000-0000-0000-0000-000000000000';
    const { apiStack } = makeApp({ siteDomain: 'pages.example.com', siteCertificateArn: certificate });
    const template = Template.fromStack(apiStack);
    const config = resources(template, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    expect(config.Aliases).toEqual(['pages.example.com']);
    expect(config.ViewerCertificate).toEqual({ AcmCertificateArn: certificate, MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' });
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      ClientName: 'order-protection-pages',
      CallbackURLs: ['https://pages.example.com/admin/', 'https://pages.example.com/portal/'],
    });
    // Without them: CloudFront's default certificate on the cloudfront.net name.
    expect(distribution().ViewerCertificate).toBeUndefined();
    expect(distribution().Aliases).toBeUndefined();
  });

  it("sends with every page exactly npm start's security headers, its connect-src widened to the sign-in and the evidence bucket only", () => {
    const headers = policy(distribution().DefaultCacheBehavior.ResponseHeadersPolicyId).SecurityHeadersConfig;
    // What npm start sends when its issuer is at <sign-in> and its S3 at <evidence>: the deployed
    // policy, with the hosted sign-in's origin and the evidence bucket's (deploy-time values) written so.
    const local = pageSecurityHeaders({ connectSources: ['https://<sign-in>', 'https://<evidence>'] });
    const csp = headers.ContentSecurityPolicy.ContentSecurityPolicy['Fn::Join'][1] as unknown[];
    const deployed = csp
      .map((part) => (typeof part === 'string' ? part : '<token>'))
      .join('')
      .replace('https://<token>.auth.<token>.amazoncognito.com', 'https://<sign-in>')
      .replace('https://<token>', 'https://<evidence>');
    expect(deployed).toBe(local['content-security-policy']);
    expect(deployed).toContain("connect-src 'self' https://<sign-in> https://<evidence>;");
    expect(JSON.stringify(csp)).toMatch(/FnGetAttEvidence[0-9A-F]+RegionalDomainName/);
    expect(pageSecurityHeaders()['content-security-policy']).toContain("connect-src 'self';");
    expect(headers).toMatchObject({
      ContentSecurityPolicy: { Override: true },
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: local['x-frame-options'], Override: true },
      ReferrerPolicy: { ReferrerPolicy: local['referrer-policy'], Override: true },
    });
    expect(local['x-content-type-options']).toBe('nosniff');
    // The same policy on /docs while no API reference is built into the site (with one, its own: see below).
    expect(behaviour('/docs*').ResponseHeadersPolicyId).toEqual(distribution().DefaultCacheBehavior.ResponseHeadersPolicyId);
  });

  it("maps a page path to its folder's index.html at the edge, and leaves files alone", () => {
    // Run as CloudFront would: the function's source alone, in a context of its own.
    const handler = runInNewContext(`${PAGE_INDEX_FUNCTION}; handler`) as (event: { request: { uri: string } }) => { uri: string };
    const map = (uri: string) => handler({ request: { uri } }).uri;
    expect(map('/admin/')).toBe('/admin/index.html');
    expect(map('/portal/')).toBe('/portal/index.html');
    expect(map('/claim')).toBe('/claim/index.html');
    expect(map('/docs')).toBe('/docs/index.html');
    expect(map('/admin/claims')).toBe('/admin/claims/index.html');
    expect(map('/config.json')).toBe('/config.json');
    expect(map('/assets/claim.js')).toBe('/assets/claim.js');
    for (const b of [distribution().DefaultCacheBehavior, behaviour('/docs*')])
      expect(b.FunctionAssociations).toEqual(
        [{ EventType: 'viewer-request', FunctionARN: Match.anyValue() }].map(() => expect.objectContaining({ EventType: 'viewer-request' })),
      );
  });

  it('passes /api/* to the HTTP API uncached, with every viewer header (Authorization too) but Host, and every method', () => {
    const apiBehaviour = behaviour(API_PATH_PATTERN);
    expect(apiBehaviour).toMatchObject({
      CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // Managed-CachingDisabled
      OriginRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac', // Managed-AllViewerExceptHostHeader
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
    });
    const origin = (distribution().Origins as { Id: string; DomainName: unknown; CustomOriginConfig?: { OriginProtocolPolicy: string } }[]).find(
      (o) => o.Id === apiBehaviour.TargetOriginId,
    )!;
    expect(JSON.stringify(origin.DomainName)).toMatch(/"Ref":"Api[0-9A-F]+"\},".execute-api."/);
    expect(origin.CustomOriginConfig?.OriginProtocolPolicy).toBe('https-only');
  });

  it('serves the widget under a stable name cached for minutes and a versioned name cached for a year, immutable', () => {
    const cache = (ref: { Ref: string }) => (api.findResources('AWS::CloudFront::CachePolicy')[ref.Ref] as Resource).Properties.CachePolicyConfig;
    const stable = behaviour(PAGE_PATHS.widget);
    const versioned = behaviour('/widget.*.js');
    expect(cache(stable.CachePolicyId)).toMatchObject({ DefaultTTL: WIDGET_STABLE_MAX_AGE.toSeconds(), MaxTTL: WIDGET_STABLE_MAX_AGE.toSeconds() });
    expect(cache(versioned.CachePolicyId)).toMatchObject({ DefaultTTL: WIDGET_VERSIONED_MAX_AGE.toSeconds() });
    expect(policy(stable.ResponseHeadersPolicyId).CustomHeadersConfig.Items).toEqual([
      { Header: 'cache-control', Value: `public, max-age=${WIDGET_STABLE_MAX_AGE.toSeconds()}`, Override: true },
    ]);
    expect(policy(versioned.ResponseHeadersPolicyId).CustomHeadersConfig.Items).toEqual([
      { Header: 'cache-control', Value: `public, max-age=${WIDGET_VERSIONED_MAX_AGE.toSeconds()}, immutable`, Override: true },
    ]);
    expect(widgetVersionedName(widgetCode)).toMatch(/^widget\.[0-9a-f]{16}\.js$/);
    expect(widgetVersionedName(`${widgetCode} `)).not.toBe(widgetVersionedName(widgetCode));
  });

  it('writes /config.json at deploy time (issuer, client id, sign-in endpoints) with the widget, never pruning, and invalidates the distribution', () => {
    const [, deployment] = resources(api, 'Custom::CDKBucketDeployment')[0]!;
    expect(deployment.Properties).toMatchObject({ Prune: false, DistributionPaths: ['/*'], DestinationBucketName: { Ref: expect.stringMatching(/^WebSite/) } });
    // widget.js, widget.<hash>.js, config.json: the last is JSON with deploy-time values filled in.
    expect(deployment.Properties.SourceObjectKeys).toHaveLength(3);
    const markers = JSON.stringify(deployment.Properties.SourceMarkers[2]);
    expect(markers).toMatch(/StaffPool.*ProviderURL/);
    expect(markers).toMatch(/"Ref":"PagesClient[0-9A-F]+"/);
    expect(markers).toMatch(/StaffPoolSignIn/);
    expect(deployment.Properties.SourceMarkersConfig[2]).toEqual({ jsonEscape: true });
  });

  it("is guarded by the edge stack's web ACL (us-east-1): AWS managed rules and a rate limit per IP", () => {
    expect(stacks.find((s) => s.stackName === 'Edge')!.region).toBe(EDGE_REGION);
    const [, acl] = resources(edge, 'AWS::WAFv2::WebACL')[0]!;
    expect(acl.Properties.Scope).toBe('CLOUDFRONT');
    const rules = acl.Properties.Rules as { Name: string; Statement: Record<string, any> }[];
    expect(rules.map((r) => r.Statement.ManagedRuleGroupStatement?.Name).filter(Boolean)).toEqual([...MANAGED_RULE_GROUPS]);
    expect(rules.find((r) => r.Statement.RateBasedStatement)!.Statement.RateBasedStatement).toEqual({ Limit: DEFAULT_WEB_RATE_LIMIT, AggregateKeyType: 'IP' });
    const [aclId] = resources(edge, 'AWS::WAFv2::WebACL')[0]!;
    edge.hasResourceProperties('AWS::SSM::Parameter', { Name: WEB_ACL_ARN_PARAMETER, Value: { 'Fn::GetAtt': [aclId, 'Arn'] } });
    // The distribution's web ACL is what the lookup read from that parameter, in us-east-1.
    const [lookupId, lookup] = resources(api, 'Custom::AWS')[0]!;
    expect(JSON.stringify(lookup.Properties.Create)).toContain(`\\"Name\\":\\"${WEB_ACL_ARN_PARAMETER}\\"`);
    expect(JSON.stringify(lookup.Properties.Create)).toContain(`\\"region\\":\\"${EDGE_REGION}\\"`);
    expect(distribution().WebACLId).toEqual({ 'Fn::GetAtt': [lookupId, 'Parameter.Value'] });
  });

  it("gives the API reference its own headers when the site holds one: npm start's, with its inline scripts' hashes", async () => {
    const site = mkdtempSync(join(work, 'site-'));
    mkdirSync(join(site, 'docs'));
    const html = '<!doctype html><title>API</title><script>console.log("redoc")</script>';
    writeFileSync(join(site, 'docs', 'index.html'), html);
    const { apiStack } = makeApp({}, siteFrom(widgetCode, site));
    const template = Template.fromStack(apiStack);
    const config = resources(template, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig;
    const docs = config.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/docs*');
    expect(docs.ResponseHeadersPolicyId).not.toEqual(config.DefaultCacheBehavior.ResponseHeadersPolicyId);
    const headers = (template.findResources('AWS::CloudFront::ResponseHeadersPolicy')[docs.ResponseHeadersPolicyId.Ref] as Resource).Properties
      .ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(headers.ContentSecurityPolicy.ContentSecurityPolicy).toBe(apiReferenceSecurityHeaders(html)['content-security-policy']);
    // The site's folder is deployed too.
    expect(resources(template, 'Custom::CDKBucketDeployment')[0]![1].Properties.SourceObjectKeys).toHaveLength(4);
    expect(Annotations.fromStack(apiStack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
  });
});

describe('alarms that reach someone', () => {
  it('every alarm notifies the alarm topic when raised and when cleared', () => {
    const [topicId] = resources(api, 'AWS::SNS::Topic')[0]!;
    const alarms = resources(api, 'AWS::CloudWatch::Alarm');
    expect(alarms.length).toBeGreaterThanOrEqual(10);
    for (const [id, alarm] of alarms) {
      expect(alarm.Properties.AlarmActions, id).toEqual([{ Ref: topicId }]);
      expect(alarm.Properties.OKActions, id).toEqual([{ Ref: topicId }]);
    }
  });

  it('is encrypted with a rotated key CloudWatch may use, and refuses publishing without TLS', () => {
    api.resourceCountIs('AWS::SNS::Topic', 1);
    const [, topic] = resources(api, 'AWS::SNS::Topic')[0]!;
    const [keyId, key] = resources(api, 'AWS::KMS::Key')[0]!;
    expect(topic.Properties.KmsMasterKeyId).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(JSON.stringify(key.Properties.KeyPolicy)).toContain('cloudwatch.amazonaws.com');
    const statements = resources(api, 'AWS::SNS::TopicPolicy')[0]![1].Properties.PolicyDocument.Statement as {
      Effect: string;
      Condition?: unknown;
      Principal: unknown;
    }[];
    expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
    expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Allow', Principal: { Service: 'cloudwatch.amazonaws.com' } }));
  });

  it('subscribes the e-mail address of context alarmEmail, and none without it', () => {
    api.resourceCountIs('AWS::SNS::Subscription', 0);
    const { apiStack } = makeApp({ alarmEmail: 'oncall@example.com' });
    Template.fromStack(apiStack).hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'oncall@example.com',
      TopicArn: Match.anyValue(),
    });
  });
});
