import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FUNCTIONS, type FunctionName } from './functions.js';

/**
 * A list's cursor is sealed with the order-number key (shared/platform/keys/cursors.ts), so a
 * function whose handler seals or opens cursors must be granted that key in the catalogue, or its
 * second page answers 500 (deployed: IAM refuses the secret; locally: the grants do). The remittance
 * list once missed it: nothing paged it, so nothing saw the refusal.
 */
describe('the function catalogue’s keys', () => {
  it('grants the order-number key to every function whose handler seals list cursors', () => {
    const handlerOf = (name: string) => new URL(`../../functions/${name}/handler.ts`, import.meta.url);
    const sealers = (Object.keys(FUNCTIONS) as FunctionName[]).filter(
      (name) => existsSync(handlerOf(name)) && readFileSync(handlerOf(name), 'utf8').includes('keys/cursors.js'),
    );
    expect(sealers.length).toBeGreaterThan(5);
    const missing = sealers.filter((name) => !((FUNCTIONS[name] as { keys?: readonly string[] }).keys ?? []).includes('order-number'));
    expect(missing).toEqual([]);
  });
});
