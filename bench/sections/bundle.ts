import { build } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE_ALIASES, esbuildOptionsFor } from '../../lib/service-function.js';
import { FUNCTIONS, functionNames, type FunctionDefinition } from '#shared/platform/functions.js';
import type { Recorder } from '../report.js';

/**
 * 1 · Bundle sizes, as the CDK construct bundles them, beside the baseline. The baseline is the
 * least handler as anyone would bundle it, with the SDK's default credential chain; our functions
 * alias that chain to Lambda's environment variables (lib/service-function.ts). So that the ratio
 * hides nothing, each figure also says what our code and libraries add over the SDK bundled our
 * way (the baseline handler, jose included, with the same alias: a reported row). The bundles
 * are left in `work` for section 2.
 */
export const bundleFile = (work: string, name: string): string => join(work, name, 'index.mjs');

export async function measureBundles(record: Recorder, work: string): Promise<void> {
  const bundle = async (entry: string, name: string, aliases: Record<string, string> = BUNDLE_ALIASES) => {
    const result = await build({ ...esbuildOptionsFor(entry, aliases), write: false, outfile: bundleFile(work, name) });
    const code = result.outputFiles[0]!.text;
    mkdirSync(join(work, name), { recursive: true });
    writeFileSync(bundleFile(work, name), code);
    return Buffer.byteLength(code);
  };
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const signedKb = (bytes: number) => `${bytes < 0 ? '−' : '+'}${kb(Math.abs(bytes))}`;

  const baselineBytes = await bundle('bench/baseline-handler.ts', 'baseline', {});
  const aliasedBytes = await bundle('bench/baseline-handler.ts', 'baseline-aliased');
  record({
    subject: 'baseline, credentials aliased',
    figure: kb(aliasedBytes),
    baseline: kb(baselineBytes),
    ratio: aliasedBytes / baselineBytes,
    goal: 'reported',
    ok: true,
  });
  // A function that writes S3 objects is held to the least handler that does (baseline-s3-handler.ts).
  const s3BaselineBytes = await bundle('bench/baseline-s3-handler.ts', 'baseline-s3', {});
  const s3AliasedBytes = await bundle('bench/baseline-s3-handler.ts', 'baseline-s3-aliased');
  record({
    subject: 'baseline writing S3 (+ S3 client)',
    figure: kb(s3BaselineBytes),
    baseline: kb(baselineBytes),
    ratio: s3BaselineBytes / baselineBytes,
    goal: 'reported',
    ok: true,
  });
  for (const name of functionNames) {
    const bytes = await bundle(`functions/${name}/handler.ts`, name);
    const definition = FUNCTIONS[name] as FunctionDefinition;
    const writesS3 = (definition.bucket?.includes('write') ?? false) || (definition.evidence?.some((use) => use === 'check' || use === 'erase') ?? false);
    const [yardstick, aliased] = writesS3 ? [s3BaselineBytes, s3AliasedBytes] : [baselineBytes, aliasedBytes];
    const ratio = bytes / yardstick;
    // The authorizer too: revocation needs the client's status on a cache miss, so it carries the SDK.
    record({
      subject: name,
      figure: `${kb(bytes)} (${signedKb(bytes - aliased)} over the aliased ${writesS3 ? 'S3 ' : ''}baseline)`,
      baseline: `${kb(yardstick)}${writesS3 ? ' (writing S3)' : ''}`,
      ratio,
      goal: '≤ 1.10×',
      ok: ratio <= 1.1,
    });
  }
}
