import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const realPath = (path: string): string | undefined => {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
};

/**
 * Whether the module at `moduleUrl` (its `import.meta.url`) is the script this process was started
 * with, however its path was spelled: through a symlinked folder, or without `.ts` (tsx finds it).
 * A script that is also imported (for its functions, by tests) runs its main only then; comparing
 * the path as given missed both spellings, and the script did nothing and exited 0.
 */
export function startedAsScript(moduleUrl: string, started: string | undefined = process.argv[1]): boolean {
  if (!started) return false;
  const self = realPath(fileURLToPath(moduleUrl));
  return self !== undefined && [started, `${started}.ts`].some((candidate) => realPath(candidate) === self);
}
