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
