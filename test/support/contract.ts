import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { matchRoute } from '../../scripts/local/api-events.js';
import { openapiDocument } from './openapi.js';

/**
 * The contract test: every response the suites see, over HTTP or from a handler, must be one that
 * openapi.yaml documents for its route and status, with a body that validates against its schema.
 */
interface Spec {
  paths: Record<string, Record<string, { responses: Record<string, { $ref?: string; content?: { 'application/json'?: { schema: object } } }> }>>;
  components: { responses: Record<string, { content: { 'application/json': { schema: object } } }> };
}

const spec = (await openapiDocument()) as Spec;
const ajv = new Ajv2020({ strict: false, allErrors: true });
// ajv-formats is CommonJS: its default export arrives wrapped under NodeNext typing.
(formats as unknown as { default: (ajv: Ajv2020) => void }).default(ajv);
ajv.addSchema(spec, 'openapi.yaml');

export function contractViolation(method: string, path: string, status: number, body: string): string | undefined {
  const route = matchRoute(method, path.split('?')[0]!);
  if (!route) return undefined; // not an API route (demo pages, unknown paths answered 404/405)
  const [, template] = route.routeKey.split(' ') as [string, string];
  const operation = spec.paths[template]?.[method.toLowerCase()];
  if (!operation) return `openapi.yaml has no ${route.routeKey}`;
  const pointer = (...parts: string[]) => `openapi.yaml#/${parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
  let response = operation.responses[String(status)];
  if (!response) return `openapi.yaml documents no ${status} for ${route.routeKey}`;
  let location = pointer('paths', template, method.toLowerCase(), 'responses', String(status));
  if (response.$ref) {
    const name = response.$ref.split('/').pop()!;
    response = spec.components.responses[name];
    location = pointer('components', 'responses', name);
  }
  if (!response?.content?.['application/json']) return body === '' ? undefined : `${route.routeKey} ${status} should have no body`;
  const validate = ajv.getSchema(`${location}/content/application~1json/schema`) ?? ajv.compile({ $ref: `${location}/content/application~1json/schema` });
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `${route.routeKey} ${status}: body is not JSON`;
  }
  return validate(parsed) ? undefined : `${route.routeKey} ${status}: ${ajv.errorsText(validate.errors)}`;
}

export function assertContract(method: string, path: string, status: number, body: string): void {
  const violation = contractViolation(method, path, status, body);
  if (violation) throw new Error(`contract violation: ${violation}\n${body.slice(0, 500)}`);
}

/** One of openapi.yaml's component schemas (`Text`, `Prose`) as a check: whether the contract takes `value`. */
export function componentSchema(name: string): (value: unknown) => boolean {
  const location = `openapi.yaml#/components/schemas/${name}`;
  const validate = ajv.getSchema(location) ?? ajv.compile({ $ref: location });
  return (value) => validate(value) === true;
}
