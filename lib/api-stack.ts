import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CorsHttpMethod, HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer, HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { OAuthScope, UserPoolClient, UserPoolClientIdentityProvider, ClientAttributes, type IUserPool } from 'aws-cdk-lib/aws-cognito';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FilterCriteria, FilterRule, StartingPosition, type IFunction } from 'aws-cdk-lib/aws-lambda';
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
import { SCOPE_PREFIX } from '#shared/platform/staff.js';
import { COGNITO_STAFF_ACTIONS } from '#shared/identity/cognito-staff-directory.js';
import { USER_POOL_VARIABLE } from '#shared/identity/staff-directory-deps.js';
import type { TableDefinition } from '#shared/platform/dynamo/table-definitions.js';
import {
  BORDEREAUX_GRANTS,
  EVIDENCE_GRANTS,
  FUNCTIONS,
  functionNames,
  routes,
  scheduledFunctions,
  streamFunctions,
  type FunctionDefinition,
  type FunctionName,
} from '#shared/platform/functions.js';
import { IDENTITY_FUNCTIONS, SCRIPT_ROLES, MERCHANT_CLIENT_ATTRIBUTE } from './identity-stack.js';
import { Observability } from './observability.js';
import { ServiceFunction } from './service-function.js';
import { PAGE_PATHS, Web, type WebProps } from './web.js';

type TableId = TableDefinition['id'];

const TABLE_VARIABLE: Record<TableId, string> = { main: 'TABLE_NAME', metrics: 'METRICS_TABLE_NAME' };

export interface ApiStackProps extends StackProps {
  tables: Record<TableId, ITableV2>;
  signingKeys: Record<KeyKind, ISecret>;
  /** The bordereaux bucket (DataStack). */
  bordereaux: IBucket;
  /** The claims' evidence bucket (DataStack): its events reach the evidence-check function. */
  evidence: IBucket;
  /** The staff sign-in (IdentityStack): the user pool, its issuer URL, and its hosted sign-in's base URL (`https://<prefix>.auth.<region>.amazoncognito.com`). */
  identity: {
    userPool: IUserPool;
    issuer: string;
    signInUrl: string;
    /** Its pre-token trigger: a failure stops every sign-in, so it alarms here. */ tokenClaims: IFunction;
  };
  /** What the distribution serves from its bucket (bin/app.ts builds the widget and finds the site). */
  site: Pick<WebProps, 'widgetCode' | 'siteDirectory' | 'apiReferenceHtml'>;
}

/** The functions of this stack: all of the catalogue's but the user pool's trigger (IdentityStack). */
export type ApiFunctionName = Exclude<FunctionName, (typeof IDENTITY_FUNCTIONS)[number]>;
export const apiFunctionNames = functionNames.filter((name): name is ApiFunctionName => !(IDENTITY_FUNCTIONS as readonly string[]).includes(name));

/** How long the pages' tokens last: an access token an hour (held in memory only), a refresh token a working day. */
export const PAGES_TOKEN_VALIDITY = { access: Duration.hours(1), refresh: Duration.hours(12) } as const;

/** Stateless: the HTTP API, its authorizer and the functions. Holds no data. */
export class ApiStack extends Stack {
  readonly api: HttpApi;
  readonly functions: Record<ApiFunctionName, ServiceFunction>;
  readonly web: Web;
  readonly pagesClient: UserPoolClient;
  readonly scriptsClient: UserPoolClient;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const tracing = this.node.tryGetContext('tracing') === true || this.node.tryGetContext('tracing') === 'true';

    // Environment and grants exactly as the function catalogue (shared/platform/functions.ts) lists them.
    const make = (name: ApiFunctionName): ServiceFunction => {
      const access: FunctionDefinition = FUNCTIONS[name];
      const environment: Record<string, string> = {};
      // Every table it reads, through its own keys or an index, is named in its environment.
      for (const table of new Set([...Object.keys(access.tables ?? {}), ...Object.keys(access.indexes ?? {})]) as Set<TableId>) {
        environment[TABLE_VARIABLE[table]] = props.tables[table].tableName;
      }
      for (const kind of access.keys ?? []) environment[SECRET_ID_VARIABLE[kind]] = props.signingKeys[kind].secretArn;
      if (access.bucket) environment.BORDEREAUX_BUCKET = props.bordereaux.bucketName;
      if (access.evidence) environment.EVIDENCE_BUCKET = props.evidence.bucketName;
      if (access.staffDirectory) environment[USER_POOL_VARIABLE] = props.identity.userPool.userPoolId;
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
      // The staff directory: exactly the Cognito adapter's actions, on the one user pool.
      if (access.staffDirectory) {
        service.fn.addToRolePolicy(
          new PolicyStatement({ actions: COGNITO_STAFF_ACTIONS.map((action) => `cognito-idp:${action}`), resources: [props.identity.userPool.userPoolArn] }),
        );
      }
      if (access.bucket) {
        for (const { actions, prefixes } of access.bucket.flatMap((use) => BORDEREAUX_GRANTS[use])) {
          service.fn.addToRolePolicy(
            new PolicyStatement({ actions: [...actions], resources: prefixes.map((prefix) => props.bordereaux.arnForObjects(`${prefix}*`)) }),
          );
        }
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
      for (const use of access.evidence ?? []) {
        for (const { actions, prefixes } of EVIDENCE_GRANTS[use]) {
          service.fn.addToRolePolicy(
            new PolicyStatement({ actions: [...actions], resources: prefixes.map((prefix) => props.evidence.arnForObjects(`${prefix}*`)) }),
          );
        }
      }
      if (access.evidence) {
        NagSuppressions.addResourceSuppressions(
          service.fn.role!,
          [
            {
              id: 'AwsSolutions-IAM5',
              reason:
                'Evidence objects are named per claim and file (uploads/<claim>/<file>, files/<claim>/<file>/<landing>); each wildcard is limited to one prefix of the one bucket.',
              appliesTo: [{ regex: '/^Resource::.*Evidence.*Arn.*\\/(uploads|files)\\/\\*$/g' }],
            },
          ],
          true,
        );
      }
      return service;
    };
    this.functions = Object.fromEntries(apiFunctionNames.map((name) => [name, make(name)])) as ApiStack['functions'];

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

    // The evidence bucket's Object Created events under uploads/, and GuardDuty's verdicts on it.
    for (const [name, definition] of Object.entries(FUNCTIONS) as [ApiFunctionName, FunctionDefinition][]) {
      if (definition.events !== 'evidence') continue;
      const target = new LambdaFunction(this.functions[name].fn, { retryAttempts: 8, maxEventAge: Duration.hours(24) });
      new Rule(this, `${name}-uploads`, {
        description: 'An evidence upload landed: check it (the file goes pending its scan)',
        eventPattern: {
          source: ['aws.s3'],
          detailType: ['Object Created'],
          detail: { bucket: { name: [props.evidence.bucketName] }, object: { key: [{ prefix: 'uploads/' }] } },
        },
        targets: [target],
      });
      new Rule(this, `${name}-scans`, {
        description: "GuardDuty's malware verdict on an evidence upload: the file goes clean, infected or rejected",
        eventPattern: {
          source: ['aws.guardduty'],
          detailType: ['GuardDuty Malware Protection Object Scan Result'],
          detail: { s3ObjectDetails: { bucketName: [props.evidence.bucketName] } },
        },
        targets: [target],
      });
    }

    for (const { name, schedule } of scheduledFunctions) {
      new Rule(this, `${name}-schedule`, {
        schedule: Schedule.rate(Duration.seconds(schedule.deployedEverySeconds)),
        targets: [new LambdaFunction(this.functions[name as ApiFunctionName].fn, { retryAttempts: 0 })],
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
    // The pages (bucket, CloudFront, the API under /api/*); the app clients' callback URLs name its domain.
    this.web = new Web(this, 'Web', {
      api: this.api,
      ...props.site,
      connectSources: [props.identity.signInUrl, `https://${props.evidence.bucketRegionalDomainName}`],
    });
    const { userPool, issuer, signInUrl } = props.identity;
    const roleScopes = SCRIPT_ROLES.map((role) => OAuthScope.custom(`${SCOPE_PREFIX}${role}`));
    // People: the console and the portal sign in through the hosted sign-in (authorization code +
    // PKCE, no secret: a browser keeps none). OpenID and e-mail only: a person's roles are the
    // groups of their account, never a scope (the trigger strips any role scope from their tokens
    // too). The client may read the e-mail and the merchant's client, and write no attribute.
    const pageRedirects = [PAGE_PATHS.console, PAGE_PATHS.portal].map((path) => `${this.web.origin}${path}`);
    this.pagesClient = new UserPoolClient(this, 'PagesClient', {
      userPool,
      userPoolClientName: 'order-protection-pages',
      generateSecret: false,
      authFlows: { userSrp: true },
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL],
        callbackUrls: pageRedirects,
        logoutUrls: pageRedirects,
      },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      accessTokenValidity: PAGES_TOKEN_VALIDITY.access,
      idTokenValidity: PAGES_TOKEN_VALIDITY.access,
      refreshTokenValidity: PAGES_TOKEN_VALIDITY.refresh,
      enableTokenRevocation: true,
      readAttributes: new ClientAttributes().withStandardAttributes({ email: true, emailVerified: true }).withCustomAttributes(MERCHANT_CLIENT_ATTRIBUTE),
      writeAttributes: new ClientAttributes(),
    });
    // Scripts: client credentials with a secret (`aws cognito-idp describe-user-pool-client` shows
    // it), granted the role scopes; a token asks for the ones it needs.
    this.scriptsClient = new UserPoolClient(this, 'ScriptsClient', {
      userPool,
      userPoolClientName: 'order-protection-scripts',
      generateSecret: true,
      oAuth: { flows: { clientCredentials: true }, scopes: roleScopes },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      accessTokenValidity: PAGES_TOKEN_VALIDITY.access,
      enableTokenRevocation: true,
    });
    // Staff routes: API Gateway's JWT authorizer checks the token's signature (the pool's JWKS),
    // issuer, expiry and client (`client_id` of an access token) before the function runs, and
    // answers 401 itself; the handler then checks the role (403 forbidden_role). One authorizer a
    // route, for people (the pages' client) and scripts (client credentials) alike.
    const staff = new HttpJwtAuthorizer('StaffAuthorizer', issuer, { jwtAudience: [this.pagesClient.userPoolClientId, this.scriptsClient.userPoolClientId] });
    // The merchant routes' authorizer accepts a merchant user's token (the pages' client) on the portal's routes.
    this.functions.authorizer.fn.addEnvironment('STAFF_ISSUER', issuer);
    this.functions.authorizer.fn.addEnvironment('STAFF_AUDIENCES', this.pagesClient.userPoolClientId);
    const authorizerOf = { 'access-token': authorizer, staff } as const;
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
    for (const route of routes) {
      const guard = route.auth === 'access-token' || route.auth === 'staff' ? authorizerOf[route.auth] : undefined;
      const [added] = this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${route.function}-integration`, this.functions[route.function].fn),
        ...(guard ? { authorizer: guard } : {}),
      });
      if (route.auth === 'staff' && !route.roles?.length) throw new Error(`${route.method} ${route.path} is a staff route without roles`);
      if (!guard && added) {
        const reason = openBecause[`${route.method} ${route.path}`] ?? openBecause[route.auth];
        if (!reason) throw new Error(`${route.method} ${route.path} has no authorizer and no reason for it`);
        NagSuppressions.addResourceSuppressions(added, [{ id: 'AwsSolutions-APIG4', reason }]);
      }
    }
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

    const observability = new Observability(this, 'Observability', {
      api: this.api,
      functions: Object.fromEntries(Object.entries(this.functions).map(([name, service]) => [name, service.fn])),
      authorizer: this.functions.authorizer.fn,
      tables: props.tables,
      unattended: {
        ...Object.fromEntries(
          apiFunctionNames
            .filter((name) => (FUNCTIONS[name] as FunctionDefinition).events !== undefined || scheduledFunctions.some((scheduled) => scheduled.name === name))
            .map((name) => [name, this.functions[name].fn]),
        ),
        'staff-token-claims': props.identity.tokenClaims,
      },
      streamConsumers: streamFunctions.map(({ name }) => ({ name, fn: this.functions[name].fn, expired: streamQueues[name]! })),
    });

    this.web.publish({
      issuer,
      client_id: this.pagesClient.userPoolClientId,
      authorization_endpoint: `${signInUrl}/oauth2/authorize`,
      token_endpoint: `${signInUrl}/oauth2/token`,
      end_session_endpoint: `${signInUrl}/logout`,
      redirect_uris: { console: pageRedirects[0]!, portal: pageRedirects[1]! },
      scope: 'openid email',
      api_base: '/api/v2',
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.apiEndpoint });
    new CfnOutput(this, 'SiteUrl', { value: this.web.origin });
    // With -c siteDomain, SiteUrl names that domain: its DNS (a CNAME, or an alias record) points here.
    new CfnOutput(this, 'DistributionDomainName', { value: this.web.distribution.distributionDomainName });
    new CfnOutput(this, 'PagesClientId', { value: this.pagesClient.userPoolClientId });
    new CfnOutput(this, 'ScriptsClientId', { value: this.scriptsClient.userPoolClientId });
    // Subscribe chat or paging to it (docs/deployment.md); -c alarmEmail=... subscribes an address.
    new CfnOutput(this, 'AlarmTopicArn', { value: observability.topic.topicArn });
  }
}
