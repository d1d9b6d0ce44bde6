import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startedAsScript } from './started-as-script.js';

/**
 * docs/guide.md, run: its ```sh blocks in order in one bash, each ```json block after a command
 * block checked against what that block's last `call` answered (status from the block's info
 * string, ```json 201; shape and every value but ids, tokens, order numbers and times). The guide
 * test runs it against npm start's server behind a contract proxy; `npm run docs:guide` runs it
 * against a running `npm start` and writes the answers it saw back into the guide.
 */
export const GUIDE = fileURLToPath(new URL('../docs/guide.md', import.meta.url));

export interface Block {
  kind: 'sh' | 'answer';
  code: string;
  /** For an answer: the status shown (```json 201). */
  status?: number;
  /** The block's first and last line in the file (its fences), 0-based. */
  start: number;
  end: number;
}

export function parseGuide(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\w+)?(?:\s+(\d{3}))?\s*$/.exec(lines[i]!);
    if (!fence?.[1]) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
    if (fence[1] === 'sh') blocks.push({ kind: 'sh', code: body.join('\n'), start, end: i });
    else if (fence[1] === 'json' && fence[2]) blocks.push({ kind: 'answer', code: body.join('\n'), status: Number(fence[2]), start, end: i });
  }
  return blocks;
}

const MARK = '<<<guide-block-end>>>';

/** Runs the command blocks in one bash (`set -e`: a failing command stops the run); each block's output. */
export async function runCommands(blocks: readonly Block[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<string[]> {
  const script = ['set -eo pipefail', ...blocks.filter((b) => b.kind === 'sh').flatMap((b) => [b.code, `echo '${MARK}'`])].join('\n');
  const child = spawn('bash', ['-c', script], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  const outputs = stdout.split(`${MARK}\n`);
  if (code !== 0) throw new Error(`the guide stopped at command block ${outputs.length} (exit ${code}):\n${outputs.at(-1)}\n${stderr}`);
  return outputs.slice(0, -1);
}

/** What a block's last `call` printed: `HTTP <status>` and the answer's JSON after it. */
export function lastAnswer(output: string): { status: number; body: unknown } | undefined {
  const at = output.lastIndexOf('HTTP ');
  if (at < 0) return undefined;
  const [statusLine, ...rest] = output.slice(at).split('\n');
  const text = rest.join('\n').trim();
  return { status: Number(statusLine!.slice(5, 8)), body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** Values that differ from run to run: ids, tokens, secrets, order numbers, times and dates, cursors. */
const VOLATILE = [
  /^\d{4}-\d{2}(-\d{2}(T[\d:.]+Z)?)?$/, // a day, a time, a month (a ledger's period)
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  /^[a-z]{2,5}_[A-Za-z0-9_-]{16,}$/,
  /^OP-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/,
  /^eyJ/,
  /^G-\d+/,
  /^whsec_/,
  /^[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}$/, // a sealed list cursor
  /^http:\/\/(localhost|127\.0\.0\.1):\d+\//, // a receiver's URL, a presigned link to the local S3
];
const volatile = (value: unknown) => typeof value === 'string' && VOLATILE.some((pattern) => pattern.test(value));

/** Where `actual` differs from `shown` in shape or in a value that is not volatile; empty when none. */
export function differences(shown: unknown, actual: unknown, path = '$'): string[] {
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return [`${path}: an array was shown, got ${JSON.stringify(actual)}`];
    if (shown.length !== actual.length) return [`${path}: ${shown.length} elements shown, got ${actual.length}`];
    return shown.flatMap((element, i) => differences(element, actual[i], `${path}[${i}]`));
  }
  if (shown && typeof shown === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return [`${path}: an object was shown, got ${JSON.stringify(actual)}`];
    const keys = new Set([...Object.keys(shown), ...Object.keys(actual)]);
    return [...keys].flatMap((key) =>
      !(key in shown)
        ? [`${path}.${key}: not shown`]
        : !(key in actual)
          ? [`${path}.${key}: shown, not answered`]
          : differences((shown as Record<string, unknown>)[key], (actual as Record<string, unknown>)[key], `${path}.${key}`),
    );
  }
  if (volatile(shown) && volatile(actual)) return [];
  return shown === actual ? [] : [`${path}: ${JSON.stringify(shown)} shown, got ${JSON.stringify(actual)}`];
}

/** Each answer block with what its command block answered; the failures found. */
export function check(blocks: readonly Block[], outputs: readonly string[]): string[] {
  const failures: string[] = [];
  let command = -1;
  for (const block of blocks) {
    if (block.kind === 'sh') {
      command++;
      continue;
    }
    const answer = lastAnswer(outputs[command] ?? '');
    const where = `docs/guide.md:${block.start + 1}`;
    if (!answer) failures.push(`${where}: the command block before it made no call`);
    else if (answer.status !== block.status) failures.push(`${where}: status ${block.status} shown, got ${answer.status}: ${JSON.stringify(answer.body)}`);
    else failures.push(...differences(JSON.parse(block.code), answer.body).map((d) => `${where}: ${d}`));
  }
  return failures;
}

/** The guide with each answer block replaced by what its command answered this time. */
export function withAnswers(markdown: string, blocks: readonly Block[], outputs: readonly string[]): string {
  const lines = markdown.split('\n');
  let command = -1;
  const replaced: { block: Block; text: string[] }[] = [];
  for (const block of blocks) {
    if (block.kind === 'sh') command++;
    else {
      const answer = lastAnswer(outputs[command] ?? '');
      if (answer) replaced.push({ block, text: [`\`\`\`json ${answer.status}`, ...JSON.stringify(answer.body, null, 2).split('\n'), '```'] });
    }
  }
  for (const { block, text } of replaced.reverse()) lines.splice(block.start, block.end - block.start + 1, ...text);
  return lines.join('\n');
}

if (startedAsScript(import.meta.url)) {
  // npm run docs:guide: against the running npm start (its .local files), answers written back.
  const markdown = readFileSync(GUIDE, 'utf8');
  const blocks = parseGuide(markdown);
  const outputs = await runCommands(blocks, { cwd: process.cwd(), env: process.env });
  writeFileSync(GUIDE, withAnswers(markdown, blocks, outputs));
  console.log(`ran ${outputs.length} command blocks; answers written to ${GUIDE}`);
}
