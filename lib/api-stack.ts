import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CorsHttpMethod, HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpIamAuthorizer, HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { SECRET_ID_VARIABLE, type KeyKind } from '#shared/platform/keys/signing-keys.js';
import type { TableDefinition } from '#shared/platform/dynamo/table-definitions.js';
import {
  FUNCTIONS,
  functionNames,
  routes,
  scheduledFunctions,
  streamFunctions,
  type FunctionDefinition,
  type FunctionName,
} from '#shared/platform/functions.js';
import { Observability } from './observability.js';
import { ServiceFunction } from './service-function.js';

type TableId = TableDefinition['id'];

const TABLE_VARIABLE: Record<TableId, string> = { main: 'TABLE_NAME', metrics: 'METRICS_TABLE_NAME' };

export interface ApiStackProps extends StackProps {
  tables: Record<TableId, ITableV2>;
  signingKeys: Record<KeyKind, ISecret>;
  /** The bordereaux bucket (DataStack). */
  bordereaux: IBucket;
}

/** S3 actions per bucket access of the catalogue, on the bordereaux/ prefix only. */
const BUCKET_ACTIONS = { read: ['s3:GetObject'], write: ['s3:PutObject', 's3:AbortMultipartUpload'] } as const;
export const BORDEREAUX_PREFIX = 'bordereaux/';

/** Stateless: the HTTP API, its authorizer and the functions. Holds no data. */
export class ApiStack extends Stack {
  readonly api: HttpApi;
  readonly functions: Record<FunctionName, ServiceFunction>;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const tracing = this.node.tryGetContext('tracing') === true || this.node.tryGetContext('tracing') === 'true';

    // Environment and grants exactly as the function catalogue (shared/platform/functions.ts) lists them.
    const make = (name: FunctionName): ServiceFunction => {
      const access: FunctionDefinition = FUNCTIONS[name];
      const environment: Record<string, string> = {};
      // Every table it reads, through its own keys or an index, is named in its environment.
      for (const table of new Set([...Object.keys(access.tables ?? {}), ...Object.keys(access.indexes ?? {})]) as Set<TableId>) {
        environment[TABLE_VARIABLE[table]] = props.tables[table].tableName;
      }
      for (const kind of access.keys ?? []) environment[SECRET_ID_VARIABLE[kind]] = props.signingKeys[kind].secretArn;
      if (access.bucket) environment.BORDEREAUX_BUCKET = props.bordereaux.bucketName;
      const service = new ServiceFunction(this, name, {
        name,
        environment,
        readsSecrets: Boolean(access.keys?.length),
        tracing,
        ...(access.timeoutSeconds ? { timeout: Duration.seconds(access.timeoutSeconds) } : {}),
      });
      for (const [table, actions] of Object.entries(access.tables ?? {}) as [TableId, readonly string[]][]) {
        service.fn.addToRolePolicy(new PolicyStatement({ actions: actions.map((a) => `dynamodb:${a}`), resources: [props.tables[table].tableArn] }));
      }
      // Indexes are granted one by one, by exact name: Query only.
      for (const [table, indexes] of Object.entries(access.indexes ?? {}) as [TableId, readonly string[]][]) {
        const { tableArn } = props.tables[table];
        service.fn.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: indexes.map((index) => `${tableArn}/index/${index}`) }));
      }
      for (const kind of access.keys ?? []) props.signingKeys[kind].grantRead(service.fn);
      if (access.bucket) {
        const objects = props.bordereaux.arnForObjects(`${BORDEREAUX_PREFIX}*`);
        service.fn.addToRolePolicy(new PolicyStatement({ actions: access.bucket.flatMap((use) => BUCKET_ACTIONS[use]), resources: [objects] }));
        NagSuppressions.addResourceSuppressions(
          service.fn.role!,
          [
            {
              id: 'AwsSolutions-IAM5',
              reason:
                'Bordereau objects are named per export (bordereaux/<month>/<kind>-<id>.csv); the wildcard is limited to the bordereaux/ prefix of the one bucket.',
              appliesTo: [{ regex: '/^Resource::.*Bordereaux.*Arn.*\\/bordereaux\\/\\*$/g' }],
            },
          ],
          true,
        );
      }
      return service;
    };
    this.functions = Object.fromEntries(functionNames.map((name) => [name, make(name)])) as ApiStack['functions'];

    // Stream consumers: the new records of one entity, in batches, in order per shard. The tumbling
    // window makes Lambda name the shard in each event (the day counts' watermark is per shard); no
    // state is carried. Retried until the records expire (24 h) so nothing is skipped while the
    // cause is fixed; a batch that expires unprocessed is described in the dead-letter queue, and
    // the iterator age and that queue are alarmed (lib/observability.ts).
    const streamQueues: Record<string, Queue> = {};
    for (const { name, stream } of streamFunctions) {
      const failed = new Queue(this, `${name}-expired-batches`, {
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
      });
      NagSuppressions.addResourceSuppressions(failed, [
        { id: 'AwsSolutions-SQS3', reason: 'This queue is itself the dead-letter destination of a stream event source mapping.' },
      ]);
      streamQueues[name] = failed;
      this.functions[name].fn.addEventSource(
        new DynamoEventSource(props.tables[stream.table], {
          startingPosition: StartingPosition.TRIM_HORIZON,
          batchSize: 1000,
          // The day counts: up to 30 s of records a batch, so a quiet shard still sends a batch of
          // many records, not one per checkout (the bench's cost section prices it at this window),
          // and one batch of a shard at a time (the watermark relies on it). The webhook
          // dispatchers: at once, ten batches of a shard at a time (Lambda keeps each item's order).
          ...(stream.batchingWindowSeconds ? { maxBatchingWindow: Duration.seconds(stream.batchingWindowSeconds) } : {}),
          parallelizationFactor: stream.parallelization ?? 1,
          ...(stream.shardNamed ? { tumblingWindow: Duration.seconds(60) } : {}),
          bisectBatchOnError: true,
          retryAttempts: -1,
          onFailure: new SqsDlq(failed),
          // New records of these entities (with `inserts`), else any change of them (a removal has no new image).
          filters: [
            FilterCriteria.filter({
              ...(stream.inserts ? { eventName: FilterRule.isEqual('INSERT') as unknown } : {}),
              dynamodb: {
                NewImage: {
                  entity: { S: FilterRule.or(...stream.entities) as unknown },
                  ...Object.fromEntries(Object.entries(stream.also ?? {}).map(([name, value]) => [name, { S: FilterRule.isEqual(value) as unknown }])),
                },
              },
            }),
          ],
        }),
      );
    }

    for (const { name, schedule } of scheduledFunctions) {
      new Rule(this, `${name}-schedule`, {
        schedule: Schedule.rate(Duration.seconds(schedule.deployedEverySeconds)),
        targets: [new LambdaFunction(this.functions[name].fn, { retryAttempts: 0 })],
      });
    }

    // The authorizer always answers isAuthorized: true with either client_id or auth_error, and
    // the handler answers 401 in the error envelope: HTTP APIs cannot shape an authorizer's
    // rejection. No identity source (optional when results are not cached), so a request without
    // an Authorization header reaches it too instead of getting API Gateway's bare 401.
    const authorizer = new HttpLambdaAuthorizer('AccessTokenAuthorizer', this.functions.authorizer.fn, {
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: [],
      resultsCacheTtl: Duration.seconds(0),
    });

    this.api = new HttpApi(this, 'Api', {
      apiName: 'order-protection',
      createDefaultStage: false,
      corsPreflight: {
        allowOrigins: ['*'],
        allowHeaders: ['content-type', 'x-public-key'],
        allowMethods: [CorsHttpMethod.POST, CorsHttpMethod.OPTIONS],
        maxAge: Duration.minutes(10),
      },
    });
    // Operator routes (the claim queue and decisions) are IAM-authorized: only a SigV4-signed
    // request from a principal holding ClaimsOperatorPolicy reaches them; API Gateway answers 403 to
    // anything else and passes the caller's identity to the handler.
    const operators = new HttpIamAuthorizer();
    const authorizerOf = { 'access-token': authorizer, staff: operators } as const;
    // Why a route has no API Gateway authorizer: its handler checks the credential itself.
    const openBecause: Record<string, string> = {
      'POST /api/v2/auth/token': 'The token route is where credentials are exchanged for an access token; it checks the secret key itself.',
      'POST /api/v2/quotes':
        'The quote route is called by the browser widget with the public key, which the handler checks; it reads one record and writes nothing.',
      'POST /api/v2/claims/sessions':
        'A customer proves an order is theirs here (order number, e-mail, public key), with failed attempts rate-limited per order number and per public key; it answers a claim token.',
      'claim-token': "The customer's claim routes verify the claim token (its own key, typ and aud, bound to one order) in the handler before anything else.",
    };
    // HTTP APIs route `/path/` to the `/path` route themselves (a route key may not end in "/"),
    // so each route is declared once.
    const operatorRoutes: string[] = [];
    for (const route of routes) {
      const guard = route.auth === 'access-token' || route.auth === 'staff' ? authorizerOf[route.auth] : undefined;
      const [added] = this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${route.function}-integration`, this.functions[route.function].fn),
        ...(guard ? { authorizer: guard } : {}),
      });
      if (route.auth === 'staff') operatorRoutes.push(this.api.arnForExecuteApi(route.method, route.path.replace(/\{[^}]+\}/g, '*'), '$default'));
      if (!guard && added) {
        const reason = openBecause[`${route.method} ${route.path}`] ?? openBecause[route.auth];
        if (!reason) throw new Error(`${route.method} ${route.path} has no authorizer and no reason for it`);
        NagSuppressions.addResourceSuppressions(added, [{ id: 'AwsSolutions-APIG4', reason }]);
      }
    }
    // What the operator's staff are given (attach it to their role or group): invoking the operator routes, nothing else.
    const operatorPolicy = new ManagedPolicy(this, 'ClaimsOperatorPolicy', {
      description: 'Order Protection operators: invoke the /api/v2/admin routes (claims, bordereaux) with SigV4, nothing else.',
      statements: [new PolicyStatement({ actions: ['execute-api:Invoke'], resources: operatorRoutes })],
    });
    NagSuppressions.addResourceSuppressions(operatorPolicy, [
      {
        id: 'AwsSolutions-IAM5',
        reason: 'Each resource is one operator route of this API and stage; the wildcard stands for the claim or export id in the path.',
        appliesTo: [{ regex: '/^Resource::arn:.*:execute-api:.*\\/api\\/v2\\/admin\\/(claims|bordereaux|audit)\\/\\*.*$/g' }],
      },
    ]);
    new CfnOutput(this, 'ClaimsOperatorPolicyArn', { value: operatorPolicy.managedPolicyArn });

    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.DESTROY });
    new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: {
        rateLimit: Number(this.node.tryGetContext('throttleRateLimit') ?? 50),
        burstLimit: Number(this.node.tryGetContext('throttleBurstLimit') ?? 100),
      },
      // JSON, no bodies, no headers: nothing personal or secret reaches the access log.
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            httpMethod: '$context.httpMethod',
            routeKey: '$context.routeKey',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latency: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
            authorizerError: '$context.authorizer.error',
          }),
        ),
      },
    });

    new Observability(this, 'Observability', {
      api: this.api,
      functions: Object.fromEntries(Object.entries(this.functions).map(([name, service]) => [name, service.fn])),
      authorizer: this.functions.authorizer.fn,
      tables: props.tables,
      streamConsumers: streamFunctions.map(({ name }) => ({ name, fn: this.functions[name].fn, expired: streamQueues[name]! })),
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.apiEndpoint });
  }
}
