import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  ApplicationLogLevel,
  Architecture,
  LoggingFormat,
  ParamsAndSecretsLayerVersion,
  ParamsAndSecretsLogLevel,
  ParamsAndSecretsVersions,
  SystemLogLevel,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import type { BuildOptions } from 'esbuild';
import { join } from 'node:path';
import { FUNCTION_MEMORY_MB, type FunctionName } from '#shared/platform/functions.js';
import { ESBUILD_TARGET, LAMBDA_RUNTIME } from './runtime.js';

/**
 * esbuild aliases of the deployed bundles: in a Lambda the SDK's credential chain shrinks to the
 * environment variables Lambda sets (see shared/platform/dynamo/lambda-credentials.ts).
 */
export const BUNDLE_ALIASES: Record<string, string> = {
  '@aws-sdk/credential-provider-node': join(import.meta.dirname, '..', 'shared', 'platform', 'dynamo', 'lambda-credentials.ts'),
};

/**
 * Every Lambda of the service: the project's one Node major (lib/runtime.ts) on arm64, one handler file, bundled by esbuild
 * (minified, ESM, source maps), its own log group. Grants are given by the stack, one by one.
 * These bundling settings are the ones the bench measures (bench/sections/bundle.ts).
 */
export const BUNDLING = {
  minify: true,
  sourceMap: true,
  format: OutputFormat.ESM,
  target: ESBUILD_TARGET,
  mainFields: ['module', 'main'],
  // ESM bundles still meet CommonJS code that calls require(); give it one.
  banner: "import { createRequire as __createRequire } from 'module'; const require = __createRequire(import.meta.url);",
  // The AWS SDK is bundled, not taken from the runtime, so the version we test is the one we run.
  externalModules: [] as string[],
  // cdk synth prints a line per bundle it makes, not esbuild's size table for each (errors still show).
  logLevel: LogLevel.ERROR,
  esbuildArgs: Object.fromEntries(Object.entries(BUNDLE_ALIASES).map(([from, to]) => [`--alias:${from}`, to])),
};

/**
 * The esbuild options NodejsFunction derives from BUNDLING, for builds outside CDK: the bench
 * (bench/sections/bundle.ts) and the deployed-bundle test (lib/service-function.test.ts).
 */
export function esbuildOptionsFor(entry: string, aliases: Record<string, string> = BUNDLE_ALIASES): BuildOptions {
  return {
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    minify: BUNDLING.minify,
    target: BUNDLING.target,
    mainFields: BUNDLING.mainFields,
    banner: { js: BUNDLING.banner },
    external: BUNDLING.externalModules,
    alias: aliases,
  };
}

export interface ServiceFunctionProps {
  name: FunctionName;
  environment?: Record<string, string>;
  /** Reads a signing-key secret through the Parameters and Secrets extension. */
  readsSecrets?: boolean;
  memorySize?: number;
  tracing?: boolean;
  timeout?: Duration;
}

export class ServiceFunction extends Construct {
  readonly fn: NodejsFunction;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    // Its own role with an inline policy for its own log group, instead of the AWS-managed basic
    // execution role that may write to any log group.
    const role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    role.addToPolicy(
      new PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [logGroup.logGroupArn, `${logGroup.logGroupArn}:*`] }),
    );
    this.fn = new NodejsFunction(this, 'Function', {
      entry: join(import.meta.dirname, '..', 'functions', props.name, 'handler.ts'),
      handler: 'handler',
      runtime: LAMBDA_RUNTIME,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? FUNCTION_MEMORY_MB,
      timeout: props.timeout ?? Duration.seconds(10),
      logGroup,
      // JSON logs, and Lambda's own START/END/REPORT lines only at WARN: three lines of every
      // invocation (the authorizer's too) that the bench's cost section prices at about a third of
      // a dollar per million requests. Durations stay in CloudWatch's Lambda metrics.
      loggingFormat: LoggingFormat.JSON,
      systemLogLevelV2: SystemLogLevel.WARN,
      applicationLogLevelV2: ApplicationLogLevel.INFO,
      role,
      tracing: props.tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      bundling: BUNDLING,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'order-protection',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        ...props.environment,
      },
      ...(props.readsSecrets
        ? {
            paramsAndSecrets: ParamsAndSecretsLayerVersion.fromVersion(ParamsAndSecretsVersions.V1_0_103, {
              cacheSize: 10,
              logLevel: ParamsAndSecretsLogLevel.WARN,
            }),
          }
        : {}),
    });
    NagSuppressions.addResourceSuppressions(this.fn, [
      { id: 'AwsSolutions-L1', reason: 'Pinned to nodejs22.x on purpose: the runtime the service is built and tested for; upgrades are a deliberate change.' },
    ]);
    NagSuppressions.addResourceSuppressions(
      role,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: "Log streams are created at run time with generated names; the wildcard is limited to streams of this function's own log group.",
          appliesTo: [{ regex: '/^Resource::.*:\\*$/g' }],
        },
        ...(props.tracing
          ? [
              {
                id: 'AwsSolutions-IAM5',
                reason: 'X-Ray (tracing=true) accepts segments only on resource "*"; the actions are PutTraceSegments and PutTelemetryRecords.',
                appliesTo: ['Resource::*'],
              },
            ]
          : []),
      ],
      true,
    );
  }
}
