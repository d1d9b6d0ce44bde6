import autocannon from 'autocannon';
import { startLocalServer } from '../../scripts/local/local-server.js';
import { items } from '../fixtures.js';
import type { Recorder } from '../report.js';

/** 5 · HTTP latency of opt-out orders through the local server (loopback, 16 connections, 5 s). */
export async function measureHttp(record: Recorder, dynamoEndpoint: string): Promise<void> {
  const local = await startLocalServer({ port: 0, dynamoEndpoint });
  let result: autocannon.Result;
  try {
    const post = async <T>(path: string, headers: Record<string, string>, body: unknown): Promise<T> =>
      (await (
        await fetch(`${local.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
      ).json()) as T;
    const { token } = await post<{ token: string }>('/api/v2/auth/token', {}, { public_key: local.demo.public_key, secret_key: local.demo.secret_key });
    const quote = await post<{ tokens: { opt_out: string } }>('/api/v2/quotes', { 'x-public-key': local.demo.public_key }, { currency: 'USD', items });
    result = await autocannon({
      url: `${local.baseUrl}/api/v2/orders`,
      method: 'POST',
      connections: 16,
      duration: 5,
      headers: { 'content-type': 'application/json', authorization: `JWT ${token}` },
      body: JSON.stringify({ token: quote.tokens.opt_out, order_number: 'HTTP-1', currency: 'USD', items }),
    });
  } finally {
    await local.stop();
  }
  const all2xx = result['2xx'] === result.requests.total && result.non2xx === 0;
  record({ subject: 'opt-out p50 / p99', figure: `${result.latency.p50} / ${result.latency.p99} ms`, goal: 'reported', ok: all2xx });
  record({ subject: 'opt-out throughput', figure: `${result.requests.average.toFixed(0)} req/s`, goal: 'all 2xx', ok: all2xx });
}
