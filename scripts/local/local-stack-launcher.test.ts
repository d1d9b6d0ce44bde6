import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledLauncher } from './local-stack.js';

describe("DynamoDB Local's loopback launcher", () => {
  it('is compiled once into node_modules/.cache and then reused, not compiled at every start', () => {
    const first = compiledLauncher();
    expect(first).toMatch(/node_modules\/\.cache\/dynamodb-local-loopback\/[0-9a-f]{16}$/);
    const compiled = statSync(join(first!, 'DynamoDbLocalLoopback.class'));
    expect(compiled.size).toBeGreaterThan(0);

    expect(compiledLauncher()).toBe(first);
    expect(statSync(join(first!, 'DynamoDbLocalLoopback.class')).mtimeMs).toBe(compiled.mtimeMs);
  });
});
