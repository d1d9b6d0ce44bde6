import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { runExport } from '#shared/bordereaux/index.js';
import { loadConfig } from '#shared/platform/config.js';
import { createDocumentClient } from '#shared/platform/dynamo/dynamo-client.js';
import { LIST_SHARDS, ledgerPartition } from '#shared/platform/dynamo/keys.js';
import { deps } from '../functions/bordereaux-export/handler.js';

/**
 * One measured run in a process of its own (bench/sections/export.ts), so that its peak memory is
 * its own: `raw <client> <period> <warm-up period>` Queries every shard of the month page after
 * page and discards what it reads (the yardstick); `export <export_id> <warm-up export_id>` runs
 * the export as its function does, the same adapters, into the local S3. Prints one JSON line:
 * rows, seconds, and the peak RSS growth over the RSS before the run (the process's high-water
 * mark from the kernel, not a sample).
 */
const [mode, ...args] = process.argv.slice(2);
const config = loadConfig();
const doc = createDocumentClient();

async function rawLoop(clientId: string, period: string): Promise<number> {
  let rows = 0;
  for (let shard = 0; shard < LIST_SHARDS; shard++) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await doc.send(
        new QueryCommand({
          TableName: config.tableName,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': ledgerPartition(clientId, period, shard) },
          ExclusiveStartKey: start,
        }),
      );
      rows += page.Items?.length ?? 0;
      start = page.LastEvaluatedKey;
    } while (start);
  }
  return rows;
}

/** The export as its function runs it: its own adapters, from this process's environment. */
const exportOf = async (exportId: string): Promise<number> => (await runExport(deps, exportId))?.rows ?? -1;

// A warm-up on a small month first (the code and the SDK's lazily loaded parts are in memory before
// the mark is taken), then the month measured: its growth is what the month adds, not the code's.
if (mode === 'raw') await rawLoop(args[0]!, args[2]!);
else await exportOf(args[1]!);
const before = process.memoryUsage().rss;
const started = performance.now();
const rows = mode === 'raw' ? await rawLoop(args[0]!, args[1]!) : await exportOf(args[0]!);
const seconds = (performance.now() - started) / 1000;
const peakGrowthMb = (process.resourceUsage().maxRSS * 1024 - before) / 1024 / 1024;
console.log(JSON.stringify({ rows, seconds, peakGrowthMb }));
doc.destroy();
