/** Where a CLI writes: its answer (stdout) and what it says about it (stderr). */
export interface CliOutput {
  log(line: string): void;
  error(line: string): void;
}

/**
 * The first option given twice among parseArgs' tokens (`tokens: true`), leaving out those meant to
 * repeat; parseArgs itself keeps the last silently, so `--client-id A --client-id B` would act on B.
 */
export function repeatedOption(tokens: readonly { kind: string; name?: string }[], repeatable: readonly string[] = []): string | undefined {
  const seen = new Set<string>();
  for (const { kind, name } of tokens) {
    if (kind !== 'option' || name === undefined || repeatable.includes(name)) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

/** A usage error: the CLI prints its message and the usage, and exits 2. */
export class UsageError extends Error {}
export function fail(message: string): never {
  throw new UsageError(message);
}

/**
 * A CLI's run: `main` with these arguments, writing to `out`; answers its exit code: 0 done (or
 * --help), 2 a usage error (the message and the usage), 1 anything else failed (`<prefix>: …`).
 */
export async function runCli(
  main: (args: string[], out: CliOutput) => Promise<void>,
  args: string[],
  out: CliOutput,
  usage: string,
  failurePrefix: string,
): Promise<number> {
  try {
    await main(args, out);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      out.error(`${err.message}\n\n${usage}`);
      return 2;
    }
    out.error(`${failurePrefix}: ${(err as Error).message}`);
    return 1;
  }
}

/** The deployed table and its region, for a CLI run with --aws. */
export interface DeployedTables {
  tableName: string;
  region: string;
}
/**
 * What a CLI run with --aws works on: the table named by TABLE_NAME (the OrderProtectionData
 * stack's output MainTableName; with `metrics`, METRICS_TABLE_NAME too: its output
 * MetricsTableName) in AWS_REGION (or AWS_DEFAULT_REGION), each given, never the names and region
 * npm start defaults to: a deployed run against a table of another name, or in another region than
 * its user pool, fails half way (docs/operations.md, "After the first deploy").
 */
export function deployedTables(needs: { metrics: true }, env?: NodeJS.ProcessEnv): DeployedTables & { metricsTableName: string };
export function deployedTables(needs?: { metrics?: false }, env?: NodeJS.ProcessEnv): DeployedTables;
export function deployedTables(needs: { metrics?: boolean } = {}, env: NodeJS.ProcessEnv = process.env): DeployedTables & { metricsTableName?: string } {
  const region = env.AWS_REGION || env.AWS_DEFAULT_REGION;
  const missing = [
    ...(env.TABLE_NAME ? [] : ['TABLE_NAME (the OrderProtectionData output MainTableName)']),
    ...(needs.metrics && !env.METRICS_TABLE_NAME ? ['METRICS_TABLE_NAME (its output MetricsTableName)'] : []),
    ...(region ? [] : ['AWS_REGION (the region it is deployed in)']),
  ];
  if (missing.length > 0) fail(`--aws needs ${missing.join(', ')} set: see docs/operations.md, "After the first deploy"`);
  return { tableName: env.TABLE_NAME!, region: region!, ...(needs.metrics ? { metricsTableName: env.METRICS_TABLE_NAME! } : {}) };
}

/** For a script without runCli: the value, or the usage error's message on standard error and exit code 2. */
export function orExit<T>(get: () => T): T {
  try {
    return get();
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(err.message);
    process.exit(2);
  }
}
