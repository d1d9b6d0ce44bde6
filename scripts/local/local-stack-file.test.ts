import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { claimLocalFolder, ownerFilePath } from './local-stack-file.js';

const folders: string[] = [];
const children: { kill(): boolean }[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const folder = () => {
  const made = mkdtempSync(join(tmpdir(), 'local-folder-'));
  folders.push(made);
  return made;
};
const holdBy = (cwd: string, pid: number) => {
  mkdirSync(join(cwd, '.local'), { recursive: true });
  writeFileSync(ownerFilePath(cwd), `${pid}\n`);
};

/** A process whose command line is the local server's, as npm start's is, running from `cwd`. */
const localServerIn = (cwd: string) => {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)', 'scripts/local/local-server.ts'], { stdio: 'ignore', cwd });
  children.push(child);
  return child;
};

describe("npm start's claim on .local/", () => {
  it('is taken in a folder nobody holds, and given back when npm start stops', async () => {
    const cwd = folder();
    const release = await claimLocalFolder(cwd);
    expect(readFileSync(ownerFilePath(cwd), 'utf8')).toBe(`${process.pid}\n`);
    await release();
    expect(existsSync(ownerFilePath(cwd))).toBe(false);
  });

  it('is refused while another npm start runs from the same folder, naming its process', async () => {
    const cwd = folder();
    const other = localServerIn(cwd);
    holdBy(cwd, other.pid!);
    await expect(claimLocalFolder(cwd)).rejects.toThrow(`another npm start (process ${other.pid}) runs from this folder`);
    expect(readFileSync(ownerFilePath(cwd), 'utf8')).toBe(`${other.pid}\n`); // untouched
  });

  it('is taken over from an npm start that ended without giving it back, and from a pid now another program’s', async () => {
    const ended = spawnSync(process.execPath, ['-e', '0']).pid;
    const cwd = folder();
    holdBy(cwd, ended);
    await claimLocalFolder(cwd);
    expect(readFileSync(ownerFilePath(cwd), 'utf8')).toBe(`${process.pid}\n`);

    if (process.platform !== 'linux') return; // elsewhere a live pid is all that can be known
    const unrelated = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    children.push(unrelated);
    const second = folder();
    holdBy(second, unrelated.pid!);
    await claimLocalFolder(second);
    expect(readFileSync(ownerFilePath(second), 'utf8')).toBe(`${process.pid}\n`);
  });

  it('is taken over from the pid of an npm start in another folder (a crashed one’s pid, reused by another clone’s)', async () => {
    if (process.platform !== 'linux') return; // no /proc to tell a process's folder
    const cwd = folder();
    const elsewhere = localServerIn(folder());
    holdBy(cwd, elsewhere.pid!);
    await claimLocalFolder(cwd);
    expect(readFileSync(ownerFilePath(cwd), 'utf8')).toBe(`${process.pid}\n`);
  });

  it('goes to one of several npm starts at the same moment, with no file and over a dead one’s (found from outside: both could win)', async () => {
    if (process.platform !== 'linux') return;
    const tsx = pathToFileURL(join(import.meta.dirname, '..', '..', 'node_modules', 'tsx', 'dist', 'esm', 'index.mjs')).href;
    const module = pathToFileURL(join(import.meta.dirname, 'local-stack-file.ts')).href;
    // Each claims, says whether it won, and stays alive a while, as an npm start does: a winner that
    // ended at once would leave a dead pid that a later starter takes over rightly.
    const code = `import(${JSON.stringify(module)}).then((m) => m.claimLocalFolder(process.cwd())).then(() => console.log('won'), (e) => console.log(/another npm start/.test(e.message) || /at the same moment/.test(e.message) ? 'refused' : 'error ' + e.message)).then(() => setTimeout(() => {}, 1500));`;
    const racer = (cwd: string) =>
      new Promise<string>((resolve) => {
        const child = spawn(process.execPath, ['--import', tsx, '-e', code, 'scripts/local/local-server.ts'], { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
        children.push(child);
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) resolve(out.trim());
        });
      });
    for (let round = 0; round < 6; round++) {
      const cwd = folder();
      if (round % 2) holdBy(cwd, spawnSync(process.execPath, ['-e', '0']).pid);
      const answers = await Promise.all(Array.from({ length: 4 }, () => racer(cwd)));
      expect(
        answers.filter((answer) => answer === 'won'),
        `round ${round}: ${answers.join(', ')}`,
      ).toHaveLength(1);
      expect(answers.filter((answer) => answer !== 'won' && answer !== 'refused')).toEqual([]);
      for (const child of children.splice(0)) child.kill();
    }
  }, 60_000);

  it('takes a garbled file over', async () => {
    const cwd = folder();
    mkdirSync(join(cwd, '.local'));
    writeFileSync(ownerFilePath(cwd), 'not a pid');
    await claimLocalFolder(cwd);
    expect(readFileSync(ownerFilePath(cwd), 'utf8')).toBe(`${process.pid}\n`);
  });
});
