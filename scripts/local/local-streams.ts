import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  TrimmedDataAccessException,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import { scheduledFunctions, streamFunctions, type FunctionDefinition, type StreamFunctionName } from '#shared/platform/functions.js';
import { logger } from '#shared/platform/http/logger.js';
import type { TableNames } from '#shared/platform/dynamo/table-admin.js';
import { localDynamoCredentials } from '#shared/platform/dynamo/dynamo-client.js';
import type { StreamWindowEvent } from '#shared/platform/dynamo/stream-events.js';
import { asFunction } from './local-grants.js';

/**
 * The local stand-in for Lambda's DynamoDB stream event source mapping: reads a table's stream on
 * DynamoDB Local shard by shard, in order, and gives each batch to the consumer's real handler in
 * the event shape Lambda uses (with the tumbling-window fields, so the shard is named). A batch
 * whose handler throws is given again, unchanged, on the next poll, as Lambda retries it; nothing
 * is skipped. Used by `npm start`, the tests (`drain()`) and the bench.
 */
export interface StreamPump {
  /** Polls until every shard has been read to its end of the moment and every batch was handled. */
  drain(): Promise<void>;
  /** Something was just written (npm start's gateway answered a request): poll now, and fast for a while. */
  wake(): void;
  stop(): Promise<void>;
}

export type Handler = (event: StreamWindowEvent) => Promise<unknown>;

interface ShardState {
  iterator?: string;
  /** The sequence number of the last record handled: where a new iterator starts when one lapses. */
  after?: string;
  /** A batch read but not yet handled (its handler threw): given again before reading on. */
  pending?: DynamoDBRecord[];
  closed: boolean;
}

type StreamFilter = NonNullable<FunctionDefinition['stream']>;

/**
 * The event source mapping's filter, as the stack writes it (lib/api-stack.ts): new images of the
 * consumer's entities (and `also` attributes), only INSERTs with `inserts`. Records it leaves out
 * never reach the handler deployed, so they do not here.
 */
function passesFilter(record: StreamRecord, filter: StreamFilter): boolean {
  if (filter.inserts && record.eventName !== 'INSERT') return false;
  const image = record.dynamodb?.NewImage;
  const entity = image?.entity?.S;
  if (!entity || !filter.entities.includes(entity)) return false;
  return Object.entries(filter.also ?? {}).every(([name, value]) => image[name]?.S === value);
}

/**
 * DynamoDB Local (3.x) writes an empty map in a stream record as a bare `{}` where DynamoDB writes
 * `{"M":{}}` (awslabs/amazon-dynamodb-local-samples#37), which no unmarshaller reads: each such
 * value is given as DynamoDB would.
 */
export function repairEmptyMaps<T>(value: T): T {
  if (Array.isArray(value)) return value.map(repairEmptyMaps) as T;
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return { M: {} } as T;
  return Object.fromEntries(
    entries.map(([key, inner]) => [
      key,
      // An attribute value is an object of one type key; a map's or list's members are attribute values again.
      key === 'M' && inner && typeof inner === 'object' && !Array.isArray(inner)
        ? Object.fromEntries(Object.entries(inner).map(([name, member]) => [name, repairEmptyMaps(member)]))
        : key === 'L' && Array.isArray(inner)
          ? inner.map(repairEmptyMaps)
          : inner,
    ]),
  ) as T;
}

const repairImage = (image: Record<string, unknown> | undefined) =>
  image && Object.fromEntries(Object.entries(image).map(([name, value]) => [name, repairEmptyMaps(value)]));

/** The stream SDK's record, in the shape Lambda gives a handler (epoch seconds, not a Date). */
export function asLambdaRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  const { ApproximateCreationDateTime, NewImage, OldImage, ...dynamodb } = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion,
    eventSourceARN: streamArn,
    dynamodb: {
      ...(dynamodb as NonNullable<DynamoDBRecord['dynamodb']>),
      ...(NewImage ? { NewImage: repairImage(NewImage) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'] } : {}),
      ...(OldImage ? { OldImage: repairImage(OldImage) as NonNullable<DynamoDBRecord['dynamodb']>['OldImage'] } : {}),
      ...(ApproximateCreationDateTime ? { ApproximateCreationDateTime: Math.floor(ApproximateCreationDateTime.getTime() / 1000) } : {}),
    },
  };
}

export async function startStreamPump(options: {
  dynamo: DynamoDBClient;
  endpoint: string;
  tableName: string;
  handler: Handler;
  /** The consumer's event source filter (the catalogue's `stream`); every record without one. */
  filter?: StreamFilter;
  /** How often a stream is read again while awake (npm start: 250 ms, so a change is handled within a second). */
  pollMs?: number;
  /**
   * How often once nothing has happened for `idleAfterMs` (default 10 s) and nobody woke the pump:
   * npm start sleeps at 5 s, so an idle server costs almost no CPU; wake() polls at once. Default: pollMs.
   */
  idlePollMs?: number;
  idleAfterMs?: number;
  /** Told when a pass read records (npm start wakes the other consumers of the same stream). */
  onActivity?: () => void;
  batchSize?: number;
  /** Told of a handler's failure (the batch is kept and given again). */
  onError?: (err: unknown) => void;
  /** Poll by itself (npm start); tests and the bench call drain() instead. */
  autoPoll?: boolean;
}): Promise<StreamPump> {
  const { Table } = await options.dynamo.send(new DescribeTableCommand({ TableName: options.tableName }));
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`Table ${options.tableName} has no stream`);
  const streams = new DynamoDBStreamsClient({
    endpoint: options.endpoint,
    region: 'us-east-1',
    credentials: localDynamoCredentials(),
  });
  const shards = new Map<string, ShardState>();
  const batchSize = options.batchSize ?? 1000;

  const discoverShards = async () => {
    let start: string | undefined;
    do {
      const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }));
      for (const shard of StreamDescription?.Shards ?? []) {
        if (!shard.ShardId || shards.has(shard.ShardId)) continue;
        // A child shard is read only after its parent is read to its end: records stay in order.
        const parent = shard.ParentShardId ? shards.get(shard.ParentShardId) : undefined;
        if (parent && !parent.closed) continue;
        const state: ShardState = { closed: false };
        await renew(shard.ShardId, state);
        shards.set(shard.ShardId, state);
      }
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start);
  };

  /** A fresh iterator: after the last record handled, or from the oldest record kept. */
  async function renew(shardId: string, state: ShardState) {
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ...(state.after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: state.after } : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    state.iterator = ShardIterator;
    state.closed = !ShardIterator;
  }

  const give = async (shardId: string, Records: DynamoDBRecord[]) => {
    const now = new Date().toISOString();
    await options.handler({
      Records,
      shardId,
      eventSourceARN: streamArn,
      window: { start: now, end: now },
      state: {},
      isFinalInvokeForWindow: false,
      isWindowTerminatedEarly: false,
    });
  };

  /** Gives a batch to the handler; kept as pending until it returns, so that a throw gives it again. */
  const handle = async (shardId: string, shard: ShardState, records: DynamoDBRecord[]) => {
    shard.pending = records;
    await give(shardId, records);
    shard.pending = undefined;
    shard.after = records.at(-1)!.dynamodb!.SequenceNumber;
  };

  /** One pass over every shard; true when it handled any record (so another pass may find more). */
  // Shards are listed again at most every 30 s, when one was read to its end (a child may follow), or when a drain asks.
  let discovered = 0;
  let shardClosed = false;
  const pass = async (discover = false): Promise<boolean> => {
    if (discover || shardClosed || Date.now() - discovered >= 30_000) {
      shardClosed = false;
      await discoverShards();
      discovered = Date.now();
    }
    let busy = false;
    for (const [shardId, shard] of shards) {
      // A batch whose handler threw is given again, unchanged, before anything newer.
      if (shard.pending) {
        await handle(shardId, shard, shard.pending);
        busy = true;
      }
      while (shard.iterator) {
        let answer;
        try {
          answer = await streams.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: batchSize }));
        } catch (err) {
          // An iterator lapses after 15 idle minutes (and DynamoDB Local sometimes calls an idle one
          // trimmed): a new one starts right after the last record handled, so nothing is skipped.
          if (!(err instanceof ExpiredIteratorException) && !(err instanceof TrimmedDataAccessException)) throw err;
          await renew(shardId, shard);
          answer = await streams.send(new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: batchSize }));
        }
        shard.iterator = answer.NextShardIterator;
        if (!shard.iterator) shard.closed = shardClosed = true;
        const read = answer.Records ?? [];
        if (read.length === 0) break;
        busy = true;
        const records = read.filter((record) => !options.filter || passesFilter(record, options.filter)).map((record) => asLambdaRecord(record, streamArn));
        if (records.length > 0) await handle(shardId, shard, records);
        else shard.after = read.at(-1)!.dynamodb!.SequenceNumber; // nothing for this consumer: read on past them
      }
    }
    return busy;
  };

  // One pass at a time: the poll timer and drain() share this chain.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work, work);
    chain = next.catch(() => undefined);
    return next;
  };

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  // After a failure the pump waits longer each time (up to 5 s), so a database that went away is
  // not asked, nor reported, several times a second.
  let failures = 0;
  const pollMs = options.pollMs ?? 250;
  const idlePollMs = options.idlePollMs ?? pollMs;
  const idleAfterMs = options.idleAfterMs ?? 10_000;
  // The last time a pass found records or someone woke the pump: fast polling for idleAfterMs after it.
  let active = Date.now();
  const delay = () => (failures > 0 ? Math.min(5_000, pollMs * 2 ** Math.min(failures, 5)) : Date.now() - active < idleAfterMs ? pollMs : idlePollMs);
  const schedule = (wait = delay()) => {
    if (stopped || !options.autoPoll) return;
    timer = setTimeout(() => {
      timer = undefined;
      void serial(pass)
        .then((busy) => {
          failures = 0;
          if (busy) {
            active = Date.now();
            options.onActivity?.();
          }
        })
        .catch((err: unknown) => {
          failures++;
          if (failures === 1 || failures % 20 === 0) options.onError?.(err);
        })
        .finally(() => schedule());
    }, wait);
  };
  schedule();

  return {
    drain: () =>
      serial(async () => {
        if (!(await pass(true))) return;
        while (await pass());
      }),
    wake: () => {
      active = Date.now();
      // A pass waiting on the slow timer runs now; one running already schedules the next fast one itself.
      if (timer !== undefined && !stopped) {
        clearTimeout(timer);
        schedule(0);
      }
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await chain;
      streams.destroy();
    },
  };
}

/**
 * A pump per stream consumer of the function catalogue (shared/platform/functions.ts), each giving its
 * table's stream to the consumer's real handler. The handlers read their table names from the
 * environment when first imported, so the caller sets it before.
 */
export async function startStreamConsumers(
  dynamo: { client: DynamoDBClient; endpoint: string },
  tables: TableNames,
  options: {
    autoPoll: boolean;
    pollMs?: number;
    idlePollMs?: number;
    /** Wraps each consumer's handler (the fault suite redelivers and splits batches through it). */
    wrap?: (name: string, handler: Handler) => Handler;
  },
): Promise<StreamPump> {
  // While idle only the first consumer of each stream keeps polling (every idlePollMs); when it reads
  // records it wakes the others, so an idle server asks each stream once per idle poll, not once per consumer.
  const watchers = new Map<string, StreamFunctionName>();
  for (const { name, stream } of streamFunctions) if (!watchers.has(stream.table)) watchers.set(stream.table, name);
  const byTable = new Map<string, StreamPump[]>();
  const pumps = await Promise.all(
    streamFunctions.map(async ({ name, stream }) => {
      const { handler: own } = (await import(`../../functions/${name}/handler.ts`)) as { handler: Handler };
      const wrapped = options.wrap ? options.wrap(name, own) : own;
      // Held to the consumer's grants, as its role holds it deployed (local-grants.ts).
      const handler: Handler = (event) => asFunction(name, () => wrapped(event));
      const watcher = watchers.get(stream.table) === name;
      const pump = await startStreamPump({
        dynamo: dynamo.client,
        endpoint: dynamo.endpoint,
        tableName: tables[stream.table],
        handler,
        filter: stream,
        autoPoll: options.autoPoll,
        pollMs: options.pollMs,
        // The others sleep while idle (an hour at most) until the watcher or a request wakes them.
        idlePollMs: options.idlePollMs === undefined ? undefined : watcher ? options.idlePollMs : 3_600_000,
        ...(watcher ? { onActivity: () => byTable.get(stream.table)?.forEach((other) => other.wake()) } : {}),
        // The batch stays and is given again: a count is late, never lost. No record content is logged.
        onError: (err) =>
          logger.warn(`${name}: reading or handling the stream failed (${(err as Error).name}); retrying, nothing is skipped`, { error: (err as Error).name }),
      });
      byTable.set(stream.table, [...(byTable.get(stream.table) ?? []), pump]);
      return pump;
    }),
  );
  return {
    drain: async () => {
      for (const pump of pumps) await pump.drain();
    },
    wake: () => {
      for (const pump of pumps) pump.wake();
    },
    stop: async () => {
      await Promise.all(pumps.map((pump) => pump.stop()));
    },
  };
}

/**
 * The scheduled functions of the catalogue, each on an interval of its own (`localEverySeconds`),
 * never two runs of one at once: npm start's stand-in for EventBridge's schedules.
 */
export function startSchedules(options: { idleEverySeconds?: number; idleAfterMs?: number } = {}): { wake(): void; stop(): Promise<void> } {
  const running = new Set<Promise<unknown>>();
  // Like the stream pumps: on its own interval while requests come, at most every idleEverySeconds when none did.
  let active = Date.now();
  const idleAfterMs = options.idleAfterMs ?? 10_000;
  const timers = scheduledFunctions.map(({ name, schedule }) => {
    let busy: Promise<unknown> | undefined;
    let last = 0;
    return setInterval(() => {
      if (busy) return;
      const idle = Date.now() - active >= idleAfterMs;
      if (idle && Date.now() - last < (options.idleEverySeconds ?? schedule.localEverySeconds) * 1000) return;
      last = Date.now();
      const run: Promise<unknown> = import(`../../functions/${name}/handler.ts`)
        .then((module: { handler: () => Promise<unknown> }) => asFunction(name, module.handler))
        .catch((err: unknown) => logger.warn(`${name}: a scheduled run failed`, { error: (err as Error).name }))
        .finally(() => {
          busy = undefined;
          running.delete(run);
        });
      busy = run;
      running.add(run);
    }, schedule.localEverySeconds * 1000);
  });
  return {
    wake: () => {
      active = Date.now();
    },
    stop: async () => {
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled([...running]);
    },
  };
}
