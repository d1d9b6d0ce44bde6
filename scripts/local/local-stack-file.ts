import { readFileSync, realpathSync } from 'node:fs';
import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * `.local/stack.json`: where the running `npm start` keeps its data — its DynamoDB endpoint and
 * table names — so that the operator CLI and the migration reach that stack, whatever port it was
 * given. Written whole once the server is up, removed when it stops.
 */
export interface StackFile {
  dynamodb_endpoint: string;
  table_name: string;
  metrics_table_name: string;
  base_url: string;
}

export const stackFilePath = (cwd = process.cwd()): string => join(cwd, '.local', 'stack.json');

/**
 * The DynamoDB a local tool should use, and where that came from: DYNAMODB_ENDPOINT when set, else
 * the running stack's (`.local/stack.json`, whose table names apply unless TABLE_NAME /
 * METRICS_TABLE_NAME are set), else DynamoDB Local on DYNAMODB_PORT or 8000.
 */
export function localDynamo(cwd = process.cwd()): { endpoint: string; source: string } {
  if (process.env.DYNAMODB_ENDPOINT) return { endpoint: process.env.DYNAMODB_ENDPOINT, source: 'DYNAMODB_ENDPOINT' };
  let stack: Partial<StackFile> | undefined;
  try {
    stack = JSON.parse(readFileSync(stackFilePath(cwd), 'utf8')) as Partial<StackFile>;
  } catch {
    stack = undefined; // no running npm start here (or an unreadable file): the default port
  }
  if (stack?.dynamodb_endpoint) {
    if (stack.table_name) process.env.TABLE_NAME ||= stack.table_name;
    if (stack.metrics_table_name) process.env.METRICS_TABLE_NAME ||= stack.metrics_table_name;
    return { endpoint: stack.dynamodb_endpoint, source: `${join('.local', 'stack.json')}, written by the running npm start` };
  }
  const port = process.env.DYNAMODB_PORT ?? '8000';
  return { endpoint: `http://localhost:${port}`, source: `no running npm start found (.local/stack.json), so DynamoDB Local on port ${port}` };
}

/** `.local/npm-start.pid`: the process of the npm start that owns this folder's `.local/` files. */
export const ownerFilePath = (cwd = process.cwd()): string => join(cwd, '.local', 'npm-start.pid');

/**
 * Whether `pid` is a running npm start of the folder `cwd`: alive, and where /proc tells, running
 * the local server from that folder (a pid a crashed npm start left may since belong to another
 * program, or to the npm start of another clone on the same machine).
 */
function isNpmStartOf(pid: number, cwd: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('local-server')) return false;
  } catch {
    return process.platform !== 'linux'; // no /proc to ask: alive is all that is known
  }
  try {
    return realpathSync(`/proc/${pid}/cwd`) === realpathSync(cwd);
  } catch {
    return true; // its folder cannot be read (another user's process): a running local server is enough
  }
}

/**
 * Claims `.local/` for this npm start, or refuses while another npm start in the same folder runs:
 * the tools (the CLI, the migration, the staff file's readers) follow the files in `.local/`, and a
 * second npm start rewrote them under the first, which then served stale keys. A file left by an
 * npm start that did not stop cleanly is taken over. Gives the release, for when this one stops.
 *
 * Two npm starts at the same moment (found from outside): the file is written whole under another
 * name and then linked into place, so no one reads it empty; a dead npm start's file is moved aside
 * before the claim, and one that turns out to hold another's live claim is put back, so two
 * starters that both saw a dead pid do not both win.
 */
export async function claimLocalFolder(cwd = process.cwd()): Promise<() => Promise<void>> {
  const file = ownerFilePath(cwd);
  await mkdir(dirname(file), { recursive: true });
  const mine = `${process.pid}\n`;
  const draft = `${file}.${process.pid}.draft`;
  const aside = `${file}.${process.pid}.aside`;
  await writeFile(draft, mine);
  try {
    // Three tries at most: the claim, and after moving a dead npm start's file aside, twice more.
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await link(draft, file);
        return async () => {
          // Only this npm start's own claim: a file another took over since is theirs.
          if ((await readFile(file, 'utf8').catch(() => '')) === mine) await rm(file, { force: true });
        };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const seen = await readFile(file, 'utf8').catch(() => '');
      refuseIfRunning(seen, cwd);
      // A dead npm start's (or a garbled) file: moved aside, and looked at again where no one else moves it.
      try {
        await rename(file, aside);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // another starter moved it first
        throw err;
      }
      const moved = await readFile(aside, 'utf8').catch(() => '');
      if (moved !== seen) {
        // Between the read and the move another starter claimed the folder: its file goes back.
        await link(aside, file).catch(() => undefined);
        await rm(aside, { force: true });
        refuseIfRunning(moved, cwd);
        continue;
      }
      await rm(aside, { force: true });
    }
  } finally {
    await rm(draft, { force: true });
  }
  throw new Error(`could not claim ${file}: another npm start is starting in this folder at the same moment`);
}

/** Refuses when `content` names a running npm start of this folder other than this one. */
function refuseIfRunning(content: string, cwd: string): void {
  const holder = Number(content.trim());
  if (Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && isNpmStartOf(holder, cwd)) {
    throw new Error(
      `another npm start (process ${holder}) runs from this folder, and the tools read its keys and endpoints in .local/. ` +
        'Stop it first (Ctrl-C there), or run this one from another clone.',
    );
  }
}
