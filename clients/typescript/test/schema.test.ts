import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { renderSchema, SCHEMA_FILE } from '../scripts/generate-schema.js';

it("the committed schema.generated.ts is what openapi-typescript makes from today's openapi.yaml (else: npm run generate:client)", async () => {
  const generated = await renderSchema();
  expect(readFileSync(SCHEMA_FILE, 'utf8') === generated, 'clients/typescript/src/schema.generated.ts is stale: run `npm run generate:client`').toBe(true);
});
