import { vi } from 'vitest';

/**
 * Every line the process writes from now on (stdout and stderr, where Powertools' logger writes),
 * kept instead of printed, at DEBUG so that nothing is left unlogged: for the privacy scans. Undo
 * with `vi.restoreAllMocks()`.
 */
export function captureLogs(): string[] {
  process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';
  const lines: string[] = [];
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
  }
  return lines;
}
