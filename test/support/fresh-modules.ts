import { afterAll, vi } from 'vitest';

/**
 * Run before each test file of the projects that share a worker's process between files
 * (vitest.config.ts, `freshModules`), so that a file starts as it would in a process of its own:
 * the project's own modules are evaluated again for it (a handler reads TABLE_NAME when first
 * imported; each file makes tables of its own) while the packages under node_modules, which Node
 * loads and keeps itself, stay loaded; and what a file changed in the process (the environment it
 * set, fake clocks) is put back after its last hook, before the next file.
 */
const environment = { ...process.env };
vi.resetModules();

afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  for (const key of Object.keys(process.env)) if (!(key in environment)) delete process.env[key];
  Object.assign(process.env, environment);
});
