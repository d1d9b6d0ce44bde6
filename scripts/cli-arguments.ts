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
