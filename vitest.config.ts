import { defineConfig } from 'vitest/config';
import { TEST_WORKERS } from './test/support/workers.js';

/**
 * Test projects, by where a test lives and what it needs:
 * unit (pure code), integration (handlers and stores over DynamoDB Local), infra (CDK templates),
 * e2e (HTTP against the local server) and browser (the pages in Debian's Chromium).
 * One DynamoDB Local serves the whole run, a database of its own for each test file
 * (test/support/global-setup.ts, test/support/dynamo.ts).
 */

const shared = { testTimeout: 30_000, hookTimeout: 60_000 };
/**
 * The files that start servers and call DynamoDB Local: a worker runs one file after another in one
 * process, so the packages (the AWS SDK, Playwright, oidc-provider, aws-cdk-lib) are loaded once per
 * worker instead of once per file; the project's own modules are loaded fresh for each file
 * (test/support/fresh-modules.ts), so that each file's handlers read its own tables from the
 * environment as before. docs/performance.md, "Fewer CPU-seconds per file".
 */
const freshModules = { isolate: false, setupFiles: ['test/support/fresh-modules.ts'] };

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    maxWorkers: TEST_WORKERS,
    env: { POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true' },
    projects: [
      {
        extends: true,
        test: {
          ...shared,
          name: 'unit',
          // Pure code: a worker's unit files share one module graph instead of importing it again each
          // (56 files: 38 → 22 s). A file that needs a module fresh says so (vi.resetModules()).
          isolate: false,
          include: [
            'shared/**/*.test.ts',
            'functions/**/*.test.ts',
            'widget/**/*.test.ts',
            'scripts/**/*.test.ts',
            'bench/**/*.test.ts',
            'clients/**/*.test.ts',
            'test/support/**/*.test.ts',
          ],
          exclude: ['**/*.int.test.ts', '**/*.e2e.test.ts', '**/node_modules/**'],
        },
      },
      { extends: true, test: { ...shared, ...freshModules, name: 'integration', include: ['**/*.int.test.ts'], exclude: ['**/node_modules/**'] } },
      { extends: true, test: { ...shared, ...freshModules, name: 'infra', include: ['lib/**/*.test.ts'], testTimeout: 120_000 } },
      { extends: true, test: { ...shared, ...freshModules, name: 'e2e', include: ['test/e2e/**/*.test.ts', 'test/security/**/*.test.ts'] } },
      // The TypeScript client (clients/typescript) against its own npm start.
      { extends: true, test: { ...shared, ...freshModules, name: 'client', include: ['clients/**/*.e2e.test.ts'], testTimeout: 60_000 } },
      // A page's waits (expect.poll) allow 10 s: on a busy 2-core machine Chromium and the stream pump
      // take longer than the default second. Waits, not speed goals (those are npm run bench's).
      {
        extends: true,
        test: {
          ...shared,
          ...freshModules,
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          testTimeout: 60_000,
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
