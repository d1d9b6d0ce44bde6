import * as v from 'valibot';
import { ValidationError } from '../errors.js';

/** `items[2].cost` from a valibot issue path. */
function paramOf(issue: v.BaseIssue<unknown>): string | undefined {
  const keys = issue.path?.map((step) => step.key) ?? [];
  if (keys.length === 0) return undefined;
  return keys.reduce<string>((param, key) => (typeof key === 'number' ? `${param}[${key}]` : param ? `${param}.${String(key)}` : String(key)), '');
}

function messageOf(issue: v.BaseIssue<unknown>, param: string | undefined): string {
  const name = param ?? 'The request body';
  if (issue.kind === 'schema' && issue.expected === 'never') return `${name} is not a known field.`;
  if (issue.received === 'undefined' && issue.kind === 'schema') return `${name} is required.`;
  return `${name}: ${issue.message}`;
}

/** Validates at the edge; the first issue becomes a 422 naming its `param`. */
export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return result.output;
  const [issue] = result.issues;
  const param = paramOf(issue);
  throw new ValidationError(messageOf(issue, param), param);
}
