import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it('takes a garbled file over', async () => {
    const cwd = folder();
    mkdirSync(join(cwd, '.local'));
    writeFileSync(ownerFilePath(cwd), 'not a pid');
    await claimLocalFolder(cwd);
    expect(readFileSync(ownerFilePath(cwd), 'utf8')).toBe(`${process.pid}\n`);
  });
});
