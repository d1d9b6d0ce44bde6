import autocannon from 'autocannon';
import { startNpmStart } from '../npm-start.js';
import { items } from '../fixtures.js';
import type { Recorder } from '../report.js';

/** What this section printed while it ran the server inside the bench's own process (autocannon and the server sharing one event loop). */
const BEFORE = '46–67 req/s in-process';

/**
 * 5 · HTTP latency of opt-out orders through `npm start` as a newcomer runs it (its own process,
 * DynamoDB Local and S3), under autocannon from the bench's process: loopback, 16 connections,
 * 1 s of warm-up (the handlers' first imports), then 5 s measured.
 */
export async function measureHttp(record: Recorder): Promise<void> {
  const local = await startNpmStart();
  let result: autocannon.Result;
  try {
    const post = async <T>(path: string, headers: Record<string, string>, body: unknown): Promise<T> =>
      (await (
        await fetch(`${local.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
      ).json()) as T;
    const { token } = await post<{ token: string }>('/api/v2/auth/token', {}, { public_key: local.demo.public_key, secret_key: local.demo.secret_key });
    const quote = await post<{ tokens: { opt_out: string } }>('/api/v2/quotes', { 'x-public-key': local.demo.public_key }, { currency: 'USD', items });
    const load = (duration: number) =>
      autocannon({
        url: `${local.baseUrl}/api/v2/orders`,
        method: 'POST',
        connections: 16,
        duration,
        headers: { 'content-type': 'application/json', authorization: `JWT ${token}` },
        body: JSON.stringify({ token: quote.tokens.opt_out, order_number: 'HTTP-1', currency: 'USD', items }),
      });
    await load(1);
    result = await load(5);
  } finally {
    await local.stop();
  }
  const all2xx = result['2xx'] === result.requests.total && result.non2xx === 0;
  record({ subject: 'opt-out p50 / p99 (npm start)', figure: `${result.latency.p50} / ${result.latency.p99} ms`, goal: 'reported', ok: all2xx });
  record({
    subject: 'opt-out throughput (npm start)',
    figure: `${result.requests.average.toFixed(0)} req/s (before: ${BEFORE})`,
    goal: 'all 2xx',
    ok: all2xx,
  });
}
