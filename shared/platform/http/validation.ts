import * as v from 'valibot';
import { ValidationError } from '../errors.js';

/** `items[2].cost` from a valibot issue path. */
function paramOf(issue: v.BaseIssue<unknown>): string | undefined {
  const keys = issue.path?.map((step) => step.key) ?? [];
  if (keys.length === 0) return undefined;
  return keys.reduce<string>((param, key) => (typeof key === 'number' ? `${param}[${key}]` : param ? `${param}.${String(key)}` : String(key)), '');
}

/** What a type valibot names is, said to a person. */
const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  Object: 'an object',
  Array: 'an array',
};

/** A check's failure in words, for a schema that kept valibot's own ("Invalid length: Expected <=255 but received 256"). */
function plainWords(issue: v.BaseIssue<unknown>): string {
  if (issue.kind === 'schema') return `must be ${(issue.expected && TYPE_WORDS[issue.expected]) ?? issue.expected ?? 'something else'}, not ${issue.received}`;
  const requirement = (issue as { requirement?: unknown }).requirement;
  const units = Array.isArray(issue.input) ? ['item', 'items'] : ['character', 'characters'];
  const count = (n: unknown) => `${String(n)} ${n === 1 ? units[0] : units[1]}`;
  switch (issue.type) {
    case 'min_length':
      return requirement === 1 ? 'must not be empty' : `must be at least ${count(requirement)}`;
    case 'max_length':
      return `must be at most ${count(requirement)}`;
    case 'min_value':
      return `must be at least ${String(requirement)}`;
    case 'max_value':
      return `must be at most ${String(requirement)}`;
    default:
      return 'is not valid';
  }
}

function messageOf(issue: v.BaseIssue<unknown>, param: string | undefined): string {
  const name = param ?? 'The request body';
  if (issue.kind === 'schema' && issue.expected === 'never') return `${name} is not a known field.`;
  if (issue.received === 'undefined' && issue.kind === 'schema') return `${name} is required.`;
  // Where a schema kept valibot's own wording ("Invalid type: Expected string but received null"), the house's instead.
  if (issue.message.startsWith('Invalid ')) return `${name}: ${plainWords(issue)}.`;
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
