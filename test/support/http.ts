import { assertContract } from './contract.js';

/**
 * A small fetch wrapper for the HTTP suites: status, headers, text and parsed JSON. Every answer
 * of an API route is checked against openapi.yaml on the way (the contract test).
 */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export async function http(
  method: string,
  url: string,
  options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<HttpAnswer> {
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const res = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), accept: 'application/json', ...options.headers },
    body,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  assertContract(method, new URL(url).pathname, res.status, text);
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** An access token for a client's keys. */
export async function accessToken(baseUrl: string, keys: { public_key: string; secret_key: string }): Promise<string> {
  const res = await http('POST', `${baseUrl}/api/v2/auth/token`, { body: { public_key: keys.public_key, secret_key: keys.secret_key } });
  if (res.status !== 200) throw new Error(`auth failed: ${res.status} ${res.text}`);
  return res.json.token;
}
