import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { Operation, type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/**
 * The DynamoDB operations the service sends (shared/**: the document client's Get, Put, Update,
 * Delete, Query, Scan, BatchWrite, BatchGet and TransactWrite commands) and its stream consumers'
 * GetRecords: the SystemErrors alarm sums one metric each. A CloudWatch alarm's metric math takes at
 * most 10 metrics (ALARM_MATH_METRICS: the throttles' alarms group functions by it too).
 */
const DYNAMO_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.QUERY,
  Operation.SCAN,
  Operation.BATCH_WRITE_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
  Operation.GET_RECORDS,
] as const;
const ALARM_MATH_METRICS = 10;
if (DYNAMO_OPERATIONS.length > ALARM_MATH_METRICS) throw new Error('A SystemErrors alarm would sum more metrics than CloudWatch takes.');

/**
 * Alarms an operator is paged on (every alarm notifies the alarm topic, to which `-c alarmEmail=...`
 * subscribes an address and docs/deployment.md adds chat or paging), and one dashboard: API traffic and errors, function errors and
 * throttles, DynamoDB system errors, and the business metrics the handlers emit (EMF).
 */
export interface ObservabilityProps {
  api: HttpApi;
  functions: Record<string, IFunction>;
  authorizer: IFunction;
  tables: Record<string, ITableV2>;
  /**
   * Functions whose failures no caller sees (scheduled, told by EventBridge, the user pool's sign-in
   * trigger): each failed run pages, named by its function.
   */
  unattended?: Record<string, IFunction>;
  /** Stream consumers, with the queue their expired batches go to. */
  streamConsumers?: { name: string; fn: IFunction; expired: IQueue }[];
}

export class Observability extends Construct {
  readonly alarms: Alarm[] = [];
  /** Where every alarm goes: encrypted with a key of its own, published to over TLS only. */
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const period = Duration.minutes(5);
    const account = Stack.of(this).account;
    // CloudWatch publishes the alarms: it may use the key (the AWS-managed SNS key admits no other
    // service) and publish to the topic, for this account's alarms only.
    const key = new Key(this, 'AlarmTopicKey', {
      description: 'Order Protection: encrypts the alarm topic',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    key.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': account } },
      }),
    );
    this.topic = new Topic(this, 'AlarmTopic', { displayName: 'Order Protection alarms', masterKey: key, enforceSSL: true });
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: { StringEquals: { 'aws:SourceAccount': account } },
      }),
    );
    const email = this.node.tryGetContext('alarmEmail') as string | undefined;
    if (email) this.topic.addSubscription(new EmailSubscription(email));
    const notify = new SnsAction(this.topic);
    const alarm = (name: string, metric: IMetric, threshold: number, description: string) => {
      const made = new Alarm(this, name, {
        metric,
        threshold,
        evaluationPeriods: 1,
        alarmDescription: description,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      // Raised and cleared: whoever is paged also learns that it is over.
      made.addAlarmAction(notify);
      made.addOkAction(notify);
      this.alarms.push(made);
    };

    const requests = props.api.metricCount({ period });
    const serverErrors = props.api.metricServerError({ period });
    const fiveXxRate = new MathExpression({
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: { errors: serverErrors, requests },
      label: '5xx rate (%)',
      period,
    });
    alarm('Api5xxRate', fiveXxRate, 1, 'More than 1% of API requests answered 5xx in 5 minutes.');

    // An alarm's metric math takes at most 10 metrics: one sum per 10 functions.
    const functions = Object.values(props.functions);
    const throttles = Array.from({ length: Math.ceil(functions.length / ALARM_MATH_METRICS) }, (_, group) => {
      const members = functions.slice(group * ALARM_MATH_METRICS, (group + 1) * ALARM_MATH_METRICS);
      return new MathExpression({
        expression: members.map((_, i) => `t${group * ALARM_MATH_METRICS + i}`).join(' + '),
        usingMetrics: Object.fromEntries(members.map((fn, i) => [`t${group * ALARM_MATH_METRICS + i}`, fn.metricThrottles({ period, statistic: 'Sum' })])),
        label: group === 0 ? 'Lambda throttles' : `Lambda throttles (${group + 1})`,
        period,
      });
    });
    throttles.forEach((sum, group) =>
      alarm(group === 0 ? 'LambdaThrottles' : `LambdaThrottles${group + 1}`, sum, 1, 'A function was throttled (concurrency limit reached).'),
    );

    // DynamoDB reports SystemErrors per table AND operation: a metric with the table alone has no data
    // and never alarms. One alarm per table sums the operations the service sends (and its streams' reads).
    const dynamoSystemErrors = Object.entries(props.tables).map(([id, table]) => {
      const metric = table.metricSystemErrorsForOperations({
        operations: [...DYNAMO_OPERATIONS],
        period,
        statistic: 'Sum',
        label: `DynamoDB system errors (${id})`,
      });
      alarm(
        `DynamoSystemErrors${id.charAt(0).toUpperCase() + id.slice(1)}`,
        metric,
        1,
        `DynamoDB answered with system errors (5xx on its side) on the ${id} table.`,
      );
      return { id, metric };
    });
    for (const [name, fn] of Object.entries(props.unattended ?? {})) {
      const id = name.replace(/(^|-)(\w)/g, (_, _dash: string, c: string) => c.toUpperCase());
      alarm(`${id}Errors`, fn.metricErrors({ period, statistic: 'Sum' }), 1, `${name} failed a run, which no caller sees (scheduled, or told by an event).`);
    }
    alarm(
      'AuthorizerErrors',
      props.authorizer.metricErrors({ period, statistic: 'Sum' }),
      1,
      'The authorizer failed (not: refused a token) — merchant routes cannot authenticate.',
    );

    // A stream consumer that falls behind (its batches keep failing, or it cannot keep up) delays
    // the day counts; one whose batches expire lost them: both page.
    for (const consumer of props.streamConsumers ?? []) {
      const id = consumer.name.replace(/(^|-)(\w)/g, (_, _dash: string, c: string) => c.toUpperCase());
      alarm(
        `${id}IteratorAge`,
        new Metric({
          namespace: 'AWS/Lambda',
          metricName: 'IteratorAge',
          dimensionsMap: { FunctionName: consumer.fn.functionName },
          period,
          statistic: 'Maximum',
        }),
        5 * 60_000,
        `${consumer.name} is more than 5 minutes behind its stream (failing batches are retried until they expire after 24 h).`,
      );
      alarm(
        `${id}ExpiredBatches`,
        consumer.expired.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
        1,
        `${consumer.name} let a stream batch expire unprocessed: its queue describes which records to replay.`,
      );
    }

    const business = (name: string, dimensions: Record<string, string> = {}) =>
      new Metric({ namespace: 'OrderProtection', metricName: name, dimensionsMap: { service: 'order-protection', ...dimensions }, period, statistic: 'Sum' });
    // Webhooks: a delivery that failed after its whole retry schedule (or at once: 410, a disabled
    // endpoint), and a due delivery that has waited more than 2 hours since its first attempt.
    alarm('WebhookDeliveriesFailed', business('WebhookDeliveriesFailed'), 1, 'A webhook delivery failed for good (retries spent, or 410 / endpoint disabled).');
    alarm(
      'WebhookOldestDueDelivery',
      new Metric({
        namespace: 'OrderProtection',
        metricName: 'OldestDueDeliverySeconds',
        dimensionsMap: { service: 'order-protection' },
        period,
        statistic: 'Maximum',
      }),
      2 * 60 * 60,
      'A webhook delivery has been waiting for more than 2 hours since its first attempt (its endpoint keeps failing).',
    );

    new Dashboard(this, 'Dashboard', {
      dashboardName: 'order-protection',
      widgets: [
        [new TextWidget({ markdown: '# Order Protection API', width: 24, height: 1 })],
        [
          new GraphWidget({ title: 'Requests and errors', left: [requests, props.api.metricClientError({ period }), serverErrors], width: 12 }),
          new GraphWidget({
            title: 'Latency (p50, p99)',
            left: [props.api.metricLatency({ period, statistic: 'p50' }), props.api.metricLatency({ period, statistic: 'p99' })],
            width: 12,
          }),
        ],
        [
          new GraphWidget({ title: 'Checkouts', left: [business('OrdersOptedIn'), business('OrdersOptedOut')], width: 8 }),
          new GraphWidget({
            title: 'Policy changes',
            left: ['upgrade', 'downgrade', 'exchange'].map((t) => business('PolicyChanges', { change_type: t })),
            width: 8,
          }),
          new GraphWidget({ title: 'Function errors', left: Object.values(props.functions).map((fn) => fn.metricErrors({ period })), width: 8 }),
        ],
        [
          new GraphWidget({ title: 'Throttles', left: throttles, width: 12 }),
          // A graph per table: CDK names each operation's metric by the operation, so two tables' sums cannot share a graph.
          ...dynamoSystemErrors.map(
            ({ id, metric }) => new GraphWidget({ title: `DynamoDB system errors (${id})`, left: [metric], width: 12 / dynamoSystemErrors.length }),
          ),
        ],
      ],
    });
  }
}
